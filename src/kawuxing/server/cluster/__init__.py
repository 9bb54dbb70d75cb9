"""Many server processes on one PostgreSQL and one Redis (issue 17, docs/deploy.md).

Each room is owned by exactly one process at a time (:mod:`.leases`); processes announce
themselves (:mod:`.presence`); any process takes any HTTP request and any WebSocket, relaying
sockets and forwarding changes to the owner over Redis pub/sub (:mod:`.relay`); when an owner
dies another rebuilds its rooms from the database (:mod:`.takeover`). :mod:`.node` ties them
together for one process. Needs the ``redis`` package (``pip install kawuxing[cluster]``);
nothing here is imported by a server started without ``--redis``.
"""

"""The bot protocol (docs/bot-protocol.md): bots in any language, one JSON object a line.

- :mod:`.messages`: the lines, built from one seat's filtered events and view (R13), and
  the action encoding (:func:`~.messages.action_object`, :func:`~.messages.read_reply`);
- :mod:`.process`: a bot program as a subprocess, with a time limit per answer;
- :mod:`.seat`: a seat of ``kawuxing arena`` played by such a program (``cmd:COMMAND``);
- :mod:`.bridge`: such a program playing an ``external`` seat of the game server
  (``kawuxing connect``), as a WebSocket client of docs/protocol.md.
"""

from .messages import PROTOCOL, VERSION, ReplyError, action_object, read_reply
from .process import BotError, BotProcess
from .seat import CommandBot, is_command

__all__ = ["PROTOCOL", "VERSION", "BotError", "BotProcess", "CommandBot", "ReplyError",
           "action_object", "is_command", "read_reply"]

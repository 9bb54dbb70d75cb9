"""An outside bot program run as a subprocess that speaks JSON lines on stdin/stdout.

:class:`BotProcess` starts the command, writes one line per message and reads one line per
answer with a time limit. Its output is read by a thread (so a wait can time out) and its
stderr is kept (the last lines) to say why it died. Every failure is a :class:`BotError`.
"""

from __future__ import annotations

import collections
import queue
import shlex
import shutil
import subprocess
import threading

STDERR_LINES = 5  # the last lines of the bot's stderr quoted when it dies
CLOSE_SECONDS = 2.0  # how long a bot may take to exit once its stdin is closed


class BotError(RuntimeError):
    """An outside bot failed: it could not be started, died, sent something that is not a
    legal answer, or took too long. The message says what and where (one line)."""


def parse_command(command: str) -> list[str]:
    """``command`` split as a shell would (no shell is run). Raises ``ValueError`` for an
    empty command, bad quoting, or a program not found on ``PATH``."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"bot command {command!r}: {exc}") from None
    if not argv:
        raise ValueError("bot command: empty")
    if shutil.which(argv[0]) is None:
        raise ValueError(f"bot command {command!r}: no program {argv[0]!r} found")
    return argv


class BotProcess:
    """``command`` (a shell-like string, :func:`parse_command`) running, with line I/O.

    :meth:`send` queues one line; :meth:`receive` waits at most ``timeout`` seconds for the
    next line of output; :meth:`close` ends the program. ``show_stderr``: the program's
    stderr goes to ours as it is written (its logging, for debugging a bot), instead of being
    kept to quote when it dies. Raises :class:`BotError` (also when the command cannot be
    started)."""

    def __init__(self, command: str, show_stderr: bool = False) -> None:
        self.command = command
        try:
            self.proc = subprocess.Popen(
                parse_command(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=None if show_stderr else subprocess.PIPE, text=True,
                encoding="utf-8", errors="replace", bufsize=1)
        except (OSError, ValueError) as exc:
            raise BotError(f"cannot start bot {command!r}: {exc}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self.outbox: queue.Queue[str | None] = queue.Queue()
        self._stderr_reader = None if show_stderr else threading.Thread(
            target=self._read_stderr, daemon=True)
        for thread in (threading.Thread(target=self._read_stdout, daemon=True),
                       threading.Thread(target=self._write, daemon=True), self._stderr_reader):
            if thread is not None:
                thread.start()

    def _read_stdout(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _read_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip())

    def _write(self) -> None:
        while (line := self.outbox.get()) is not None:
            try:
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                return  # the bot is gone: receive() says so
        try:
            self.proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    def send(self, line: str) -> None:
        """Queue ``line`` (no newline in it) for the bot's stdin."""
        self.outbox.put(line)

    def unasked(self) -> str | None:
        """A line of output already waiting, taken off the queue (None if there is none, or
        only the end of the output): called before a request, a waiting line is one nobody
        asked for (a second answer, stray logging on stdout)."""
        try:
            line = self.lines.get_nowait()
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)  # the end of the output: receive() reports it
        return line

    def receive(self, timeout: float) -> str:
        """The bot's next line of output. Raises :class:`BotError` if none comes within
        ``timeout`` seconds or the bot's output ended (it exited: its code and last stderr
        lines are quoted)."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise BotError(f"no answer within {timeout:g} s") from None
        if line is None:
            try:
                how = f"exit code {self.proc.wait(timeout=CLOSE_SECONDS)}"
            except subprocess.TimeoutExpired:
                how = f"it is still running {CLOSE_SECONDS:g} s later"
            if self._stderr_reader is not None:  # its last words may still be in the pipe
                self._stderr_reader.join(timeout=CLOSE_SECONDS)
            said = " | ".join(self.stderr)
            raise BotError(f"the bot closed its output ({how})"
                           + (f"; its stderr ends: {said}" if said else ""))
        return line

    def close(self) -> None:
        """Close the bot's stdin, give it :data:`CLOSE_SECONDS` to exit, then kill it."""
        self.outbox.put(None)
        try:
            self.proc.wait(timeout=CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

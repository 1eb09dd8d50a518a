"""Bearer tokens for ``graphmem mcp`` over streamable HTTP.

Every tool takes a ``user_id``: a client that reaches an open port could read and forget
anyone's memory. So the HTTP transport checks ``Authorization: Bearer <token>`` against
tokens given to the server, and refuses to listen beyond loopback without any. A token may
be **bound to one user**: then every tool call must name that user (an agent holding it
cannot reach another user's memory); an unbound token may name any user.

Tokens come from ``GRAPHMEM_MCP_TOKEN`` (one token, any user) and from a token file
(``--tokens FILE``), one per line — ``TOKEN`` (any user) or ``TOKEN USER_ID`` (that user
only); blank lines and ``#`` comments are skipped. Only their SHA-256 digests are kept in
memory and compared in constant time; a token is named in logs and in a fact's history
(``changed_by``) by the first 8 hex digits of its digest, never by itself.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path

from graphmem._errors import ConfigError

MIN_TOKEN_CHARS = 16
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
TOKEN_ENV = "GRAPHMEM_MCP_TOKEN"


@dataclass(frozen=True)
class Grant:
    """What one token may do: ``user_id`` None for any user."""

    label: str  # "token 3f2a91c0": the digest's first 8 hex digits
    user_id: str | None


class Tokens:
    """The bearer tokens a server accepts, by digest."""

    def __init__(self, grants: dict[bytes, Grant]) -> None:
        self._grants = grants

    def __len__(self) -> int:
        return len(self._grants)

    @classmethod
    def load(cls, path: str | Path | None = None, env: dict[str, str] | None = None) -> Tokens:
        """The tokens of ``GRAPHMEM_MCP_TOKEN`` and of the token file ``path``."""
        grants: dict[bytes, Grant] = {}
        env = os.environ if env is None else env
        if env.get(TOKEN_ENV):
            cls._add(grants, env[TOKEN_ENV].strip(), None, TOKEN_ENV)
        if path is not None:
            try:
                lines = Path(path).read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise ConfigError(f"cannot read the MCP token file {path}: "
                                  f"{exc.strerror or exc}") from exc
            for number, line in enumerate(lines, start=1):
                words = line.split("#", 1)[0].split()
                if not words:
                    continue
                if len(words) > 2:
                    raise ConfigError(f"{path}:{number}: a line is TOKEN or TOKEN USER_ID")
                cls._add(grants, words[0], words[1] if len(words) == 2 else None,
                         f"{path}:{number}")
        return cls(grants)

    @staticmethod
    def _add(grants: dict[bytes, Grant], token: str, user_id: str | None, where: str) -> None:
        if len(token) < MIN_TOKEN_CHARS:
            raise ConfigError(f"{where}: a bearer token has at least {MIN_TOKEN_CHARS} "
                              "characters (make one with: python -c 'import secrets; "
                              "print(secrets.token_urlsafe(32))')")
        digest = hashlib.sha256(token.encode("utf-8")).digest()
        grants[digest] = Grant(f"token {digest.hex()[:8]}", user_id)

    def grant(self, token: str) -> Grant | None:
        """The grant of a presented token, or None (compared in constant time)."""
        digest = hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
        found = None
        for known, grant in self._grants.items():
            if hmac.compare_digest(known, digest):
                found = grant
        return found


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or name to listen on) is reachable from this machine
    only."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_listening(host: str, tokens: Tokens) -> None:
    """Refuse to serve beyond loopback without a bearer token."""
    if not tokens and not is_loopback(host):
        raise ConfigError(
            f"graphmem mcp refuses to listen on {host} without a bearer token: any client "
            f"that reaches the port could read and forget any user's memory. Set "
            f"{TOKEN_ENV}, or give --tokens FILE (lines: TOKEN [USER_ID]); see docs/mcp.md "
            "(Security)")

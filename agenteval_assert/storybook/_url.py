"""``new URL(s)`` as the reference's JavaScript runs it, for what its checks read: the scheme, the
host and the port of a URL (the WHATWG URL Standard's parser, for the special schemes).

Hand-written because ``urllib.parse`` follows RFC 3986 and answers differently where the checks
care: WHATWG reads ``\\`` as ``/`` after a special scheme (``http:\\\\localhost``), skips any
slashes after ``http:`` (``http:localhost:6006``), removes tabs and newlines anywhere,
percent-decodes and lower-cases the host, reads an IPv4 address in any of its forms (``127.1``,
``0x7f.1``, ``2130706433``, a trailing dot ``127.0.0.1.``) and writes IPv6 compressed
(``[0:0:0:0:0:0:0:1]`` is ``[::1]``). Only what those three values need is implemented: no
path, query or fragment, no base URL.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote_to_bytes

__all__ = ["WhatwgUrl", "parse_url"]

_SPECIAL_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": None}
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_C0_SPACE = "".join(chr(i) for i in range(0x21))
#: forbidden domain code points (URL Standard): forbidden host code points, C0 controls, % and DEL
_FORBIDDEN_DOMAIN = frozenset("\x00\t\n\r #/:<>?@[\\]^|%\x7f" + "".join(chr(i) for i in range(0x20)))


class WhatwgUrl:
    """The parts of a parsed URL the checks read."""

    __slots__ = ("host", "port", "scheme")

    def __init__(self, scheme: str, host: str, port: str) -> None:
        self.scheme = scheme  # lower case, without ':'
        self.host = host  # serialized: 'localhost', '127.0.0.1', '[::1]'
        self.port = port  # '' for the scheme's default port or none, as ``URL.port``

    def __repr__(self) -> str:
        return f"WhatwgUrl({self.scheme!r}, {self.host!r}, {self.port!r})"


def parse_url(text: str) -> WhatwgUrl | None:
    """``new URL(text)`` for a special scheme (``http``, ``https``, ``ws``, ``wss``, ``ftp``):
    scheme, host and port; ``None`` where the constructor throws or the scheme is not special."""
    s = text.strip(_C0_SPACE)
    s = s.replace("\t", "").replace("\n", "").replace("\r", "")
    m = _SCHEME.match(s)
    if m is None:
        return None
    scheme = m.group(1).lower()
    if scheme not in _SPECIAL_PORTS or scheme == "file":
        return None
    rest = s[m.end():].lstrip("/\\")  # special authority: any slashes, either way
    end = len(rest)
    for ch in "/\\?#":
        i = rest.find(ch)
        if 0 <= i < end:
            end = i
    authority = rest[:end]
    if "@" in authority:
        authority = authority[authority.rfind("@") + 1:]
    host_text, port_text = _split_port(authority)
    if port_text is None:
        return None
    host = _host(host_text)
    if host is None:
        return None
    if port_text:
        if not port_text.isascii() or not port_text.isdigit() or int(port_text) > 65535:
            return None
        port = "" if int(port_text) == _SPECIAL_PORTS[scheme] else str(int(port_text))
    else:
        port = ""
    return WhatwgUrl(scheme, host, port)


def _split_port(authority: str) -> tuple[str, str | None]:
    """Host and port text (``None`` for a malformed ``[…]``): the ``:`` outside brackets splits."""
    inside = False
    for i, ch in enumerate(authority):
        if ch == "[":
            inside = True
        elif ch == "]":
            inside = False
        elif ch == ":" and not inside:
            return authority[:i], authority[i + 1:]
    return authority, ""


def _host(text: str) -> str | None:
    if not text:
        return None  # a special scheme needs a host
    if text.startswith("["):
        if not text.endswith("]") or "%" in text:
            return None
        try:
            return f"[{ipaddress.IPv6Address(text[1:-1]).compressed}]"
        except ValueError:
            return None
    try:
        decoded = unquote_to_bytes(text).decode("utf-8")
    except UnicodeDecodeError:
        return None
    if decoded.isascii():
        domain = decoded.lower()
    else:
        try:  # domain to ASCII: IDNA with its mappings (full-width letters and digits...)
            domain = ".".join(label.encode("idna").decode("ascii") if label else "" for label in decoded.split(".")).lower()
        except UnicodeError:
            return None
    if not domain or any(ch in _FORBIDDEN_DOMAIN for ch in domain):
        return None
    if _ends_in_a_number(domain):
        return _ipv4(domain)
    return domain


def _ends_in_a_number(domain: str) -> bool:
    parts = domain.split(".")
    if parts[-1] == "":
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]
    if last and last.isascii() and last.isdigit():
        return True
    return _ipv4_number(last) is not None


def _ipv4_number(part: str) -> int | None:
    if not part:
        return None
    radix = 10
    if part[:2] in ("0x", "0X"):
        part, radix = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        part, radix = part[1:], 8
    if part == "":
        return 0
    digits = {10: "0123456789", 16: "0123456789abcdefABCDEF", 8: "01234567"}[radix]
    if any(ch not in digits for ch in part):
        return None
    return int(part, radix)


def _ipv4(domain: str) -> str | None:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        return None
    numbers = []
    for p in parts:
        n = _ipv4_number(p)
        if n is None:
            return None
        numbers.append(n)
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    value = numbers[-1]
    for i, n in enumerate(numbers[:-1]):
        value += n * 256 ** (3 - i)
    return ".".join(str((value >> shift) & 255) for shift in (24, 16, 8, 0))

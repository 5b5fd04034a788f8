"""This machine's address on the local network (for friends on the same Wi-Fi)."""

from __future__ import annotations

import socket

__all__ = ["lan_address"]


def lan_address() -> str | None:
    """The IPv4 address other machines on the LAN can reach, or ``None``.

    Uses the address the system would send from toward a public address;
    no packet is sent (UDP ``connect`` only picks a route).
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing sent
            address = str(sock.getsockname()[0])
    except OSError:
        return None
    if address.startswith("127.") or address == "0.0.0.0":
        return None
    return address

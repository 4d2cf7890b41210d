"""The client's address: one answer for the login lock-outs (django-axes'
AXES_CLIENT_IP_CALLABLE) and the rate limits (cardgame.limits, DRF's NUM_PROXIES), issue 35.

Without a proxy (TRUSTED_PROXIES = 0, the default) it is the connection's own address,
REMOTE_ADDR: an X-Forwarded-For header is the client's own writing and changes nothing.
Behind TRUSTED_PROXIES proxies (BEHIND_TLS_PROXY=true: one), and only when the connection
comes from one of TRUSTED_PROXY_ADDRESSES, it is the address the outermost trusted proxy
saw: each proxy appends the address it was reached from to X-Forwarded-For, so it is the
TRUSTED_PROXIES-th entry from the right. Whatever a client writes to the left of it is
never read. Imports no app code.
"""

import ipaddress
from functools import lru_cache

from django.conf import settings


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies = getattr(settings, "TRUSTED_PROXIES", 0)
    if proxies <= 0 or not _from_a_trusted_proxy(remote):
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    hops = [hop for hop in hops if hop]
    if not hops:
        return remote
    seen = hops[-min(proxies, len(hops))]
    return seen if _is_address(seen) else remote


def _from_a_trusted_proxy(remote) -> bool:
    if not remote or not _is_address(remote):
        return False
    address = ipaddress.ip_address(remote)
    return any(address in network for network in _trusted_networks(_trusted_setting()))


def _trusted_setting() -> tuple:
    return tuple(getattr(settings, "TRUSTED_PROXY_ADDRESSES", ("127.0.0.1", "::1")))


@lru_cache(maxsize=8)
def _trusted_networks(entries: tuple) -> tuple:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True

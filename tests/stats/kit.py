"""Helpers of the stats tests: engine "move" events as the matches app stores them."""


def move(owner, code, why, origin="colony", to="centre", hidden=True):
    card = {"face_down": True, "owner": owner, "zone": to, "id": 7}
    if not hidden:
        card = {"id": 7, "code": code, "name": code, "owner": owner, "zone": to}
    data = {"card": card, "from": origin, "to": to, "why": why}
    secret = {"id": 7, "code": code, "name": code} if hidden else None
    return {"kind": "move", "data": data, "secret": secret, "to": [owner] if hidden else []}

"""Every frame a screen may send, parsed strictly: a size cap, one model per operation, nothing extra.

A frame that fails gets an error in the reader's language and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter, ValidationError

MAX_FRAME = 4096  # bytes: the longest legal frame (a lobby with every option set) is far below this
MAX_ID = 2**53  # table and seat ids: JSON numbers a browser keeps exactly

TableId = Annotated[StrictInt, Field(ge=1, le=MAX_ID)]
OptionValue = StrictBool | StrictInt | Annotated[StrictStr, Field(max_length=40)]


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(Frame):
    op: Literal["hello"]
    session: Annotated[StrictStr, Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
    table: TableId | None = None
    language: Annotated[StrictStr, Field(max_length=16)] = "en"


class Act(Frame):
    op: Literal["act"]
    table: TableId
    action: Annotated[StrictStr, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9 -]+$")]
    turn: Annotated[StrictInt, Field(ge=0, le=100_000)]


class Open(Frame):
    op: Literal["open"]
    game: Annotated[StrictStr, Field(max_length=32)]
    options: Annotated[dict[Annotated[StrictStr, Field(max_length=40)], OptionValue], Field(max_length=40)] = {}
    players: Annotated[StrictInt, Field(ge=1, le=16)] | None = None
    computers: Annotated[list[Literal["easy", "strong"]], Field(max_length=15)] = []
    hints: StrictBool = False


class Lobby(Frame):
    op: Literal["join", "leave", "start"]
    table: TableId


class Ask(Frame):
    """A hint: what the strong computer would do in the seat's place (tables that allow hints)."""

    op: Literal["hint"]
    table: TableId


class Review(Frame):
    """The last scored deal trick by trick (the chat's "Last deal"): asked for, not pushed with every change."""

    op: Literal["review"]
    table: TableId


class Computer(Frame):
    op: Literal["computer"]
    table: TableId
    level: Literal["easy", "strong"]


class Uncomputer(Frame):
    op: Literal["uncomputer"]
    table: TableId
    key: TableId


class Watch(Frame):
    op: Literal["watch"]
    table: TableId | None = None  # None: the place's open table (or the lobby form)


Inbound = Annotated[
    Hello | Act | Open | Lobby | Ask | Review | Computer | Uncomputer | Watch, Field(discriminator="op")
]
PARSER: TypeAdapter[Inbound] = TypeAdapter(Inbound)


class TokenRequest(Frame):
    """``POST /api/token``: the code the SDK's ``authorize`` gave the page, and the instance it runs in."""

    # Only what could be Discord's (its codes are some thirty letters and digits): anything else is refused here,
    # never costing a call to Discord from the bot's own address.
    code: Annotated[StrictStr, Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
    # (one segment of Discord's URL, and never "." or "..", which a URL reads as this folder or the one above)
    instance_id: Annotated[
        StrictStr, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]*[A-Za-z0-9_:-][A-Za-z0-9_.:-]*$")
    ]
    language: Annotated[StrictStr, Field(max_length=16)] = "en"


class BadFrame(ValueError):
    """A frame that is too long, not JSON, or not one of the operations above."""


def parse(data: str | bytes) -> Hello | Act | Open | Lobby | Ask | Review | Computer | Uncomputer | Watch:
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_FRAME:
        raise BadFrame("too_long")
    try:
        return PARSER.validate_json(raw)
    except ValidationError:
        raise BadFrame("malformed") from None

"""Table chat: players and spectators talk at one table, and only there."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from tables.models import DEPARTED_NAME, ChatMessage
from tables.services import chat
from tests.tables.helpers import friends_table
from tests.tables.sockets import Client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_database_connections"),
]


FLAG = "\U0001f3f4"  # a black flag: tags after it name a subdivision's flag
CANCEL_TAG = "\U000e007f"


def tags(text: str) -> str:
    """``text`` in Unicode's invisible tag characters."""
    return "".join(chr(0xE0000 + ord(char)) for char in text)


async def next_chat(client: Client) -> dict:
    while True:
        frame = await client.next()
        if frame["type"] == "chat":
            return frame


async def test_a_spectator_and_a_player_talk_and_another_table_hears_nothing(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    other = await sync_to_async(friends_table)(carol, name="Elsewhere")
    player, spectator = await Client.open(alice, table.pk), await Client.open(carol, table.pk)
    elsewhere = await Client.open(carol, other.pk)
    await spectator.send({"type": "chat", "text": "  <b>nice   hand</b> "})
    for client in (player, spectator):
        line = await next_chat(client)
        assert (line["name"], line["text"]) == (carol.public_name, "<b>nice hand</b>")
        assert line["at"]
    await player.send({"type": "chat", "text": "thanks"})
    assert (await next_chat(spectator))["text"] == "thanks"
    assert await elsewhere.is_quiet()
    for client in (player, spectator, elsewhere):
        await client.close()


async def test_the_first_snapshot_has_the_last_twenty_lines(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    for number in range(25):
        await sync_to_async(chat.chat_post)(table_id=table.pk, user=alice, text=f"line {number}")
    client = await Client.open(bob, table.pk)
    lines = client.table["chat"]
    assert [line["text"] for line in lines] == [f"line {n}" for n in range(5, 25)]
    await client.close()


async def test_a_deleted_members_lines_come_under_the_former_members_name(alice, bob, carol):
    table = await sync_to_async(friends_table)(alice, bob)
    for who, text in ((carol, "hi all"), (alice, "hello carol"), (carol, "bye")):
        await sync_to_async(chat.chat_post)(table_id=table.pk, user=who, text=text)
    await sync_to_async(carol.delete)()
    client = await Client.open(bob, table.pk)
    assert [(line["name"], line["text"]) for line in client.table["chat"]] == [
        (DEPARTED_NAME, "hi all"),
        (alice.public_name, "hello carol"),
        (DEPARTED_NAME, "bye"),
    ]
    await client.close()


@pytest.mark.parametrize(
    "message, code",
    [
        ({"type": "chat"}, "bad_message"),
        ({"type": "chat", "text": 5}, "bad_message"),
        ({"type": "chat", "text": None}, "bad_message"),
        ({"type": "chat", "text": "   "}, "bad_chat"),
        ({"type": "chat", "text": "x" * 201}, "bad_chat"),
        # what display names refuse: a right-to-left override would reorder what the
        # reader sees, NUL hides the rest of the line from some clients
        ({"type": "chat", "text": "gg \u202ednuor txen"}, "bad_chat"),
        ({"type": "chat", "text": "nice\x00 hand"}, "bad_chat"),
        ({"type": "chat", "text": "zero\u200bwidth"}, "bad_chat"),
        # a joiner or tags outside an emoji: invisible, or a message nobody sees
        ({"type": "chat", "text": "al\u200dice"}, "bad_chat"),
        ({"type": "chat", "text": "\u2660\u200d\u2665"}, "bad_chat"),  # no emoji joins there
        ({"type": "chat", "text": "gg \U0001f469\u200d"}, "bad_chat"),
        ({"type": "chat", "text": FLAG + tags("hi there") + CANCEL_TAG}, "bad_chat"),
        ({"type": "chat", "text": FLAG + tags("gbsct")}, "bad_chat"),
        # json.loads makes a lone surrogate of "\ud800", which no UTF-8 can store or send
        ({"type": "chat", "text": "\ud800"}, "bad_chat"),
        ({"type": "chat", "text": "ok \udfff"}, "bad_chat"),
    ],
)
async def test_bad_chat_gets_an_error_and_nothing_is_said(alice, bob, carol, message, code):
    table = await sync_to_async(friends_table)(alice, bob)
    client = await Client.open(alice, table.pk)
    listener = await Client.open(carol, table.pk)
    assert (await client.error(message))["code"] == code
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    assert await listener.is_quiet(), "nothing was relayed to the table"
    await client.close()
    await listener.close()


async def test_emoji_sequences_are_said_as_typed(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    client = await Client.open(alice, table.pk)
    sequences = [
        "\U0001f469\u200d\U0001f4bb",  # a woman at a computer: two emoji and a joiner
        "\u2764\ufe0f\u200d\U0001f525",  # a heart on fire: a symbol drawn as emoji
        "\U0001f468\U0001f3fd\u200d\U0001f680",  # an astronaut with a skin tone
        "\U0001f9d1\u200d\u2695\ufe0f",  # a health worker
        FLAG + tags("gbsct") + CANCEL_TAG,  # Scotland's flag
    ]
    for text in sequences:
        await client.send({"type": "chat", "text": f"gg {text}"})
        assert (await next_chat(client))["text"] == f"gg {text}"
    await client.close()


async def test_a_lone_surrogate_is_refused_as_bad_chat_in_the_raw_frame(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    client = await Client.open(alice, table.pk)
    error = await client.error('{"type": "chat", "text": "\\ud800"}', raw=True)
    assert error["code"] == "bad_chat" and "visible characters" in error["message"]
    await client.send({"type": "chat", "text": "still here \u00e9\u2660"})  # the socket is fine
    assert (await next_chat(client))["text"] == "still here \u00e9\u2660"
    await client.close()


async def test_two_hundred_characters_are_fine_and_flooding_chat_is_refused(alice, bob):
    table = await sync_to_async(friends_table)(alice, bob)
    client = await Client.open(alice, table.pk)
    codes = []
    for _ in range(8):
        await client.send({"type": "chat", "text": "y" * 200})
        frame = await client.next()
        codes.append(frame.get("code") if frame["type"] == "error" else frame["type"])
    assert codes[:5] == ["chat"] * 5
    assert "chat_rate_limited" in codes[5:]
    assert await sync_to_async(ChatMessage.objects.count)() == codes.count("chat")
    await client.close()

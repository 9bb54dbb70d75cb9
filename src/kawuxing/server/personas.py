"""Who a bot seat is at the table: a persona with a Hubei-flavoured name in Chinese and its
romanisation in English (老张 / Lao Zhang, 陈爹爹 / Chen Diedie …), so that the settlement says
"老张 付 小王 4" rather than "机器人 普通 付 机器人 普通 4".

Each bot level has its own small pool (小王 for the easy bot, 老张 for the strong one, 老胡 for
the expert, 小伢 for the random one); a spec with no pool of its own draws from all of them. The server sends only
the persona's ``id`` and i18n ``key`` (:meth:`Persona.public`); the browser shows
``persona_<id>`` from its zh/en tables, the level as a tag and an initial in a circle of the
seat's colour. Nothing here is stored: :func:`choose` derives the personas from the room code
and the seats each time, the same every time for the same room and table.

Rules of :func:`choose`: two bots at one table never share a persona, and no bot takes a name
(Chinese or English, case and spaces ignored) that a player at the table goes by. A seat a
player left to a bot (``vacated``) keeps that player's nickname and has no persona.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..agents.registry import parse_bot


@dataclass(frozen=True)
class Persona:
    """One bot persona: ``id`` (ASCII, the i18n key is ``persona_<id>``), ``zh`` and ``en``
    (the name in each language; the web client's i18n tables hold the same texts)."""

    id: str
    zh: str
    en: str

    @property
    def key(self) -> str:
        """The i18n key of the name: ``persona_lao_zhang``."""
        return f"persona_{self.id}"

    def names(self) -> set[str]:
        """The persona's names, folded for comparing with nicknames (:func:`fold`)."""
        return {fold(self.zh), fold(self.en)}

    def public(self) -> dict:
        """What a seat's public dict carries:
        ``{"id": "lao_zhang", "key": "persona_lao_zhang"}``."""
        return {"id": self.id, "key": self.key}


# Pools by (bot name, level), weakest first; 小 for the young, 老/师傅/爹爹/婆婆 for the old hands
# (爹爹 and 婆婆 are Wuhan for grandpa and grandma, 伢 a child, 幺妹 the youngest sister, 老表 a
# cousin or mate).
POOLS: dict[tuple[str, int | None], tuple[Persona, ...]] = {
    ("random", None): (Persona("xiao_ya", "小伢", "Xiao Ya"),
                       Persona("mao_mao", "毛毛", "Maomao"),
                       Persona("yao_mei", "幺妹", "Yaomei"),
                       Persona("xiao_pang", "小胖", "Xiao Pang")),
    ("heuristic", 1): (Persona("xiao_wang", "小王", "Xiao Wang"),
                       Persona("xiao_li", "小李", "Xiao Li"),
                       Persona("xiao_chen", "小陈", "Xiao Chen"),
                       Persona("xiao_liu", "小刘", "Xiao Liu")),
    ("heuristic", 2): (Persona("lao_biao", "老表", "Lao Biao"),
                       Persona("wang_shifu", "王师傅", "Wang Shifu"),
                       Persona("li_jie", "李姐", "Li Jie"), Persona("hu_ge", "胡哥", "Hu Ge")),
    ("heuristic", 3): (Persona("lao_zhang", "老张", "Lao Zhang"),
                       Persona("chen_diedie", "陈爹爹", "Chen Diedie"),
                       Persona("liu_popo", "刘婆婆", "Liu Popo"),
                       Persona("zhou_shifu", "周师傅", "Zhou Shifu")),
    ("expert", None): (Persona("lao_hu", "老胡", "Lao Hu"),
                       Persona("zhao_diedie", "赵爹爹", "Zhao Diedie"),
                       Persona("qian_popo", "钱婆婆", "Qian Popo"),
                       Persona("sun_shifu", "孙师傅", "Sun Shifu")),
    ("learned", None): (Persona("a_jie", "阿杰", "A Jie"),
                        Persona("xiao_yang", "小杨", "Xiao Yang"),
                        Persona("huang_laoshi", "黄老师", "Huang Laoshi"),
                        Persona("wu_jie", "吴姐", "Wu Jie")),
}
PERSONAS: tuple[Persona, ...] = tuple(p for pool in POOLS.values() for p in pool)

# The traditional (and variant) forms of the characters of the bots' Chinese names, as the
# simplified ones the names are written in: 老張 and 劉婆婆 are 老张 and 刘婆婆 (a player's name
# may not pass for a bot's in either script; seats.clean_nickname, identity.skeleton). The
# other characters of the names (小 老 王 李 胡 哥 姐 婆 爹 伢 毛 胖 妹 表 周 傅 阿) are one form in both.
TRADITIONAL = str.maketrans({"張": "张", "陳": "陈", "劉": "刘", "師": "师", "趙": "赵",
                             "錢": "钱", "孫": "孙", "麼": "幺", "么": "幺", "鬍": "胡",
                             "錶": "表", "週": "周", "傑": "杰", "楊": "杨", "黃": "黄",
                             "吳": "吴"})


def simplified(name: str) -> str:
    """``name`` with the traditional forms of :data:`TRADITIONAL` as the simplified ones
    (``"老張"`` → ``"老张"``); every other character as it is."""
    return name.translate(TRADITIONAL)
BY_ID: dict[str, Persona] = {p.id: p for p in PERSONAS}


def fold(name: str) -> str:
    """A name for comparing: case folded, spaces removed (``"Lao Zhang"`` → ``"laozhang"``)."""
    return "".join(name.casefold().split())


def pool_of(spec: str) -> tuple[Persona, ...]:
    """The personas a bot of ``spec`` draws from: its level's pool, or every persona for a
    spec with none (or one the registry does not know)."""
    try:
        bot, level = parse_bot(spec)
    except ValueError:
        return PERSONAS
    return POOLS.get((bot.name, level), PERSONAS)


def _ranked(code: str, seat: int, pool: tuple[Persona, ...]) -> list[Persona]:
    """``pool`` in the order seat ``seat`` of room ``code`` prefers it (a SHA-256 ranking:
    the same for the same room and seat, different between rooms)."""
    return sorted(pool, key=lambda p: hashlib.sha256(f"{code}/{seat}/{p.id}".encode()).digest())


def choose(code: str, seats: list[dict]) -> list[Persona | None]:
    """The persona of each seat of room ``code``: ``seats`` are ``{"kind", "bot",
    "nickname", "vacated"}`` in seat order (kind ``open``/``human``/``bot``). A bot seat
    (not vacated) takes, in seat order, the first persona of its pool in its ranking
    (:func:`_ranked`) that no earlier bot seat took and whose names are no nickname of a
    player or vacated seat at the table; when its pool has none left, the first such of
    every persona. Other seats get None. Deterministic: no clock, no OS randomness."""
    taken: set[str] = set()
    names = {fold(s["nickname"]) for s in seats
             if s.get("nickname") and (s["kind"] == "human" or s.get("vacated"))}
    out: list[Persona | None] = []
    for seat, s in enumerate(seats):
        if s["kind"] != "bot" or s.get("vacated"):
            out.append(None)
            continue
        free = [p for p in _ranked(code, seat, pool_of(s.get("bot") or ""))
                if p.id not in taken and not p.names() & names]
        if not free:
            free = [p for p in _ranked(code, seat, PERSONAS)
                    if p.id not in taken and not p.names() & names]
        persona = free[0]  # 20 personas, at most 3 seats: never empty
        taken.add(persona.id)
        out.append(persona)
    return out

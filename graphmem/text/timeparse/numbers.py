"""Numbers, units and the word patterns both languages' rules share (一百二十 → 120, "a
couple of" → 2, 个多月 → month). Pure code."""

from __future__ import annotations

import re

from graphmem.text.timeparse.calendar import FUZZY, HALF

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4,
              "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
CN_UNITS = {"十": 10, "百": 100, "廿": 20, "卅": 30}


def cn_int(s: str) -> int:
    """Chinese or Arabic numeral → int ("十二" → 12, "二〇二三" → 2023, "１２" → 12)."""
    if s.isdecimal():
        return int(s)
    if len(s) > 1 and all(c in CN_DIGITS for c in s):
        return int("".join(str(CN_DIGITS[c]) for c in s))
    total = current = 0
    for ch in s:
        if ch in CN_DIGITS:
            current = CN_DIGITS[ch]
        elif ch in CN_UNITS:
            unit = CN_UNITS[ch]
            total += (current or 1) * unit if unit in (10, 100) else unit
            current = 0
        else:
            raise ValueError(f"not a numeral: {s!r}")
    return total + current


def cn_count(s: str) -> int:
    if "几" in s or "幾" in s:
        return FUZZY
    if s == "半":
        return HALF
    return cn_int(s)


EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
}


def en_count(s: str) -> int:
    s = " ".join(s.lower().split())
    if s.isdecimal():
        return int(s)
    if s.startswith("half") or s.endswith("half"):
        return HALF
    if "couple" in s:
        return 2
    if s in ("few", "a few", "several", "some"):
        return FUZZY
    return EN_NUMBERS[s]


def en_unit(s: str) -> str:
    s = s.lower()
    if s.startswith("mi"):
        return "minute"
    for prefix, unit in (("h", "hour"), ("d", "day"), ("w", "week"), ("mo", "month"),
                         ("y", "year")):
        if s.startswith(prefix):
            return unit
    raise ValueError(s)


def cn_unit(s: str) -> str:
    if "分" in s:
        return "minute"
    if any(c in s for c in "时時头頭"):
        return "hour"
    if "天" in s:
        return "day"
    if "月" in s:
        return "month"
    if "年" in s:
        return "year"
    return "week"


# ----------------------------------------------------------------------------- tokens


L = r"(?<![A-Za-z0-9])"  # an English word start (\b would fail next to CJK text)
R = r"(?![A-Za-z0-9])"
EN_NUM = (
    r"(?P<n>\d{1,4}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several|some|half\s+an?|"
    r"an?\s+half|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty)"
)
NOT_OF = r"(?!\s+of\s)"  # "the last week of December" is about December
EN_UNIT = r"(?P<u>minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?)"
MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
}
MON = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|"
    r"november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?![A-Za-z])\.?"
)
BARE_MONTHS = {  # may stand alone when capitalised (April, May, June, August are names)
    "january", "february", "march", "july", "september", "october", "november", "december",
}
WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
             "saturday": 5, "sunday": 6}
WEEKDAY = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
REL = {"last": -1, "previous": -1, "the previous": -1, "this": 0, "next": 1, "coming": 1,
        "the coming": 1}

CN_NUM = r"(?P<n>好几|好幾|十几|十幾|几|幾|半|\d{1,4}|[零〇一二两兩三四五六七八九十百]{1,5})"
CN_UNIT = (  # 个多月: "三个多月前" (three-odd months ago)
    r"(?P<u>天|周|週|[个個]多?星期|星期|[个個]多?礼拜|[个個]多?禮拜|礼拜|禮拜|[个個]多?月|年|"
    r"[个個]多?小时|[个個]多?小時|小时|小時|[个個]多?钟头|[个個]多?鐘頭|钟头|鐘頭|分钟|分鐘)"
)
CN_NOT_AFTER_NUM = r"(?<![\d零〇一二两兩三四五六七八九十百几幾第])"
CN_REL = {"上上": -2, "上": -1, "这": 0, "這": 0, "本": 0, "下": 1, "下下": 2}
CN_COUNTING = "每一二两兩三四五六七八九十几幾个個多半0123456789"  # before 周一: not a day
CN_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
CN_PART = {"底": "end", "末": "end", "初": "start", "上旬": "start", "中旬": "mid",
            "中": "mid", "下旬": "late"}
EN_PART = {"end": "end", "beginning": "start", "start": "start", "middle": "mid",
            "early": "start", "mid": "mid", "late": "late"}


def words_of(m: re.Match[str], group: str) -> str:
    return " ".join((m.group(group) or "").lower().split())


# ------------------------------------------------------------- days and recent moments


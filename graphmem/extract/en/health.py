"""English health: the conditions someone has ("my dad has gout", "I was diagnosed with
asthma", "she's type 2 diabetic", "he had a stroke in July") — ``has_condition``, on
whoever the part is about."""

from __future__ import annotations

import re

from graphmem.extract.candidate import USER, Context, Found, Part, compiled
from graphmem.extract.vocab import alternation

IC = re.IGNORECASE
# Conditions by name; "_" joins a phrase.
_WORDS = """
    type_1_diabetes type_2_diabetes diabetes prediabetes pre-diabetes asthma gout arthritis
    rheumatoid_arthritis osteoarthritis high_blood_pressure hypertension high_cholesterol
    migraine migraines hay_fever hayfever eczema psoriasis ibs crohn's crohns
    crohn's_disease ulcerative_colitis colitis coeliac_disease celiac_disease adhd autism
    anxiety depression insomnia sleep_apnea sleep_apnoea sciatica tinnitus epilepsy cancer
    breast_cancer prostate_cancer skin_cancer heart_disease heart_failure a_heart_condition
    kidney_disease chronic_kidney_disease hypothyroidism hyperthyroidism
    an_underactive_thyroid an_overactive_thyroid pcos endometriosis fibromyalgia lupus
    acid_reflux gerd osteoporosis dementia alzheimer's alzheimers parkinson's parkinsons
    multiple_sclerosis long_covid chronic_fatigue anaemia anemia vertigo plantar_fasciitis
    tendinitis tendonitis carpal_tunnel dyslexia shingles glaucoma cataracts a_bad_back
    a_bad_knee a_bad_hip a_torn_acl a_torn_meniscus a_slipped_disc a_herniated_disc
    copd emphysema bronchitis chronic_bronchitis angina afib atrial_fibrillation
    a_heart_murmur cystic_fibrosis sickle_cell hepatitis hiv diverticulitis gallstones
    kidney_stones a_hernia cerebral_palsy down_syndrome scoliosis spina_bifida hearing_loss
    macular_degeneration ocd ptsd bipolar_disorder schizophrenia an_eating_disorder anorexia
    bulimia postnatal_depression postpartum_depression gestational_diabetes lung_cancer
    bowel_cancer colon_cancer leukemia leukaemia lymphoma melanoma motion_sickness
    car_sickness travel_sickness"""
_NAMES = alternation(_WORDS)
_OWN_NAMES = alternation(" ".join(w.removeprefix("a_").removeprefix("an_") for w in _WORDS.split()))
# Conditions said as what someone is: "she's diabetic".
_ADJECTIVES = {"diabetic": "diabetes", "prediabetic": "prediabetes",
               "pre-diabetic": "prediabetes", "asthmatic": "asthma", "epileptic": "epilepsy",
               "coeliac": "coeliac disease", "celiac": "celiac disease", "anaemic": "anaemia",
               "anemic": "anemia", "autistic": "autism", "dyslexic": "dyslexia",
               "hypertensive": "hypertension", "insomniac": "insomnia"}
_ADJECTIVE = "|".join(sorted(_ADJECTIVES, key=len, reverse=True))
_MILD = r"(?:(?:mild|severe|bad|chronic|early|early-stage|stage\s+\d|borderline|really\s+bad)\s+)?"
_HAS = (rf"^(?:also\s+|still\s+|now\s+|just\s+|actually\s+)?(?P<no>(?:do(?:n't|nt| not)|"
        rf"does(?:n't|nt| not)|never)\s+)?(?:has|have|'ve\s+got|'s\s+got|has\s+got|have\s+got|"
        rf"got|suffers?\s+from|deals?\s+with|struggles?\s+with|lives?\s+with|is\s+living\s+with)"
        rf"\s+{_MILD}(?P<c>{_NAMES})\b(?!\s+(?:medication|meds|tablets|pills|clinic|test|"
        rf"nurse|doctor|specialist|appointment|diet|friendly|symptoms))")
# Diagnosed, or an event that stays (a stroke, a heart attack): past is still theirs.
_DIAGNOSED = (rf"^(?:also\s+|just\s+|recently\s+|finally\s+|actually\s+)?(?:was|were|got|"
              rf"has\s+been|have\s+been|'s\s+been|'ve\s+been|just\s+got|been)\s+diagnosed\s+"
              rf"with\s+{_MILD}(?P<c>{_NAMES})\b"
              rf"|^(?:also\s+|just\s+|recently\s+)?had\s+(?P<e>a\s+(?:mild\s+|minor\s+|small\s+)?"
              rf"(?:stroke|heart\s+attack|knee\s+replacement|hip\s+replacement))\b")
_IS = (rf"^(?:is|'s|am|'m|are|'re|has\s+been|have\s+been|'s\s+been|'ve\s+been)\s+"
       rf"(?P<no>not\s+)?(?:also\s+|now\s+|still\s+)?(?P<t>type\s+[12]\s+)?{_MILD}"
       rf"(?P<a>{_ADJECTIVE})\b")
# "my hay fever is killing me", "my asthma's acting up": the user's own
_MINE = (rf"(?:^|\s)my\s+{_MILD}(?P<c>{_OWN_NAMES})"
         rf"\b(?!\s+(?:medication|meds|tablets|pills|clinic|test|nurse|doctor|specialist|"
         rf"appointment|diet|friendly|symptoms))")
_BARE = rf"^(?P<t>type\s+[12]\s+)?(?P<a>{_ADJECTIVE})$"  # "she's 68, type 2 diabetic"


def _health(t: str, part: Part, ctx: Context, found: Found) -> None:
    t = t.strip().lower()
    if part.subjects in (None, (USER,)) and not part.hedged and (
            m := compiled(_MINE, IC).search(t)):  # "my hay fever is killing me"
        found.add(USER, "has_condition", _name(m.group("c")), False, 0.85, "condition")
        return
    if part.subjects is None or part.hedged:
        return
    if m := compiled(_DIAGNOSED, IC).match(t):
        value = _name(m.group("c") or m.group("e"))
        for subject in part.subjects:  # said in the past, theirs now
            found.add(subject, "has_condition", value, False, 0.85, "condition")
        return
    if part.past:
        return
    if m := compiled(_HAS, IC).match(t):
        found.say(part, "has_condition", _name(m.group("c")), bool(m.group("no")), 0.85,
                  "condition")
    elif (m := compiled(_IS, IC).match(t)) or (part.subject_said is False and (
            m := compiled(_BARE, IC).match(t))):
        value = _ADJECTIVES[m.group("a").lower()]
        if m.group("t") and value == "diabetes":
            value = f"{' '.join(m.group('t').split())} diabetes"
        negated = "no" in m.groupdict() and bool(m.group("no"))
        found.say(part, "has_condition", value, negated, 0.85, "condition")


def _name(said: str) -> str:
    return re.sub(r"^(?:a|an)\s+", "", " ".join(said.split()))

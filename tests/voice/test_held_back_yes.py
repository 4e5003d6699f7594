"""A yes the caller holds back stays no yes on the telephone band, though the answer to a
read-back is read there with a prompt of answers (meta/voice_prompt.py `YESNO_PROMPT`): that
prompt's words were written over held-back answers ("yes but later" -> "Yes, please." in
espeak-ng en-029+m2 and en-gb-x-gbclan+f5 at 8 kHz; benchmarks/README.md, session 23). A yes
read with the answers' prompt stands only when the same audio read with the line's own prompt
agrees and holds no no and no hedge (`voice_readback.veto_held`, session 24). A plain yes with
no yes word in it ("mm-hm do it", "perfect go ahead") is still taken. The voices are devx
voices (tuned on, never unseen)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from benchmarks.voice.voices import espeak_as, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from domains.intent import yes_or_no
from meta.voice_readback import holds_back, veto_held

CARIB = espeak_as("en-029+m2", 165)
GBCLAN = espeak_as("en-gb-x-gbclan+f5", 170)
NYC = espeak_as("en-us-nyc+f3", 150)


def _heard(stt: WhisperSTT, voice: Callable[[str], tuple[object, int]], said: str) -> str:
    pcm, rate = voice(said)
    return stt.hear(to_16k(*telephone(pcm, rate)), stt.slot()).text


@pytest.mark.parametrize("voice", [CARIB, GBCLAN], ids=["en-029+m2", "gbclan+f5"])
def test_a_yes_held_back_is_no_yes_on_the_telephone_band(line_recogniser: WhisperSTT, voice: Callable,
                                                          espeak_ng: str, sox_bin: str) -> None:
    heard = _heard(line_recogniser, voice, "yes but later")
    assert yes_or_no(heard) is not True, heard  # "Yes, please." with the answers' prompt alone: the action ran


@pytest.mark.parametrize(("voice", "said"), [(NYC, "mm-hm do it"), (NYC, "perfect go ahead"), (GBCLAN, "perfect go ahead")],
                         ids=["nyc-mm-hm", "nyc-perfect", "gbclan-perfect"])
def test_a_yes_without_a_yes_word_is_still_taken(line_recogniser: WhisperSTT, voice: Callable, said: str,
                                                 espeak_ng: str, sox_bin: str) -> None:
    heard = _heard(line_recogniser, voice, said)
    assert yes_or_no(heard) is True, heard  # the line's prompt alone: "My email can do it.", "First, let's go ahead."


def test_the_veto_reads_the_plain_reading_only_for_a_yes() -> None:
    asked: list[int] = []

    def plain(readings: list[str]) -> Callable[[], list[str]]:
        def read() -> list[str]:
            asked.append(1)
            return readings
        return read

    assert veto_held("Yes, please.", plain(["Yes, but later."])) == "Yes, but later."
    assert veto_held("Yeah.", plain(["Yes, not right now."])) == "Yes, not right now."
    assert veto_held("Yeah.", plain(["No."])) == "No."
    assert veto_held("Mm-hm, go ahead.", plain(["My email can do it."])) is None  # an assent, no hedge: the yes stands
    assert veto_held("Sure, why not?", plain(["Sure, why not?"])) is None  # "not" alone holds nothing back
    assert veto_held("That works for me.", plain(["I'd work for me."])) is None  # scotland's dev call at 8 kHz
    assert veto_held("Yes, please.", plain(["Thank you. Thank you."])) == "Thank you. Thank you."  # no assent: asked again
    assert veto_held("Yes, go ahead.", plain(["Yes, go ahead.", "Yes, but later."])) == "Yes, but later."
    assert veto_held("Yes, that's right.", plain(["Yes, that's right.", "Yeah.", "Yes, not right now."])) == \
        "Yes, not right now."
    assert veto_held("Sure.", plain(["Sure, right now.", "Sure, no."])) == "Sure, no."
    assert len(asked) == 10
    assert veto_held("No, wait.", plain(["Yes."])) is None  # only a yes is checked: nothing decoded again
    assert veto_held("Hold on.", plain(["Yes."])) is None
    assert len(asked) == 10
    assert holds_back("Yeah, hold on.") and holds_back("No, thanks.") and not holds_back("Yep, that's right.")
    assert not holds_back("Sure, right now.") and holds_back("Yes, not right now.")

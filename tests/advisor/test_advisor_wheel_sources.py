"""Version ranges checked against what each release wheel ships (``explorer/advisor/data/sources/*-wheels.json``,
written by ``python -m explorer.probe.wheels LIBRARY`` from the wheels on PyPI).

* A record text is *decidable* when its literal pieces are in at least one measured wheel.  A release the record
  says prints the text (its range, minus the ranges of its older wordings) must ship it: a range reaching a
  release without the text is wrong.  The releases checked are those of the library's scope, or, for a record
  of releases before it (torch 1.x), the measured releases its range reaches.  The other direction is not asserted: a shipped text can be unreachable
  (an older C++ check behind a newer Python one).
* A record decided by kernels (:data:`explorer.probe.wheels.TORCH` markers, e.g. "the MPS kernel is missing")
  holds in exactly the measured releases where its marker strings are present / absent.
"""

from __future__ import annotations

import pytest

from explorer.advisor import knowledge
from explorer.probe import wheels

KB = knowledge.load()
SOURCES = list(wheels.SOURCES.values())
#: how many record texts each library's wheels decide at least (what was measured when the source was added)
LEAST_DECIDABLE = {"torch": 34, "keras": 6, "kornia": 3, "coreml": 5}


def _found(data: dict) -> dict[str, set[str]]:
    return {release: set(entry["present"]) for release, entry in data["releases"].items()}


def _prints(record, text: str, release: str) -> bool:
    """Whether the record says ``release`` prints ``text`` (an error text or one of its wordings)."""
    if not record.versions.contains(release):
        return False
    for wording in record.wordings:
        if wording.text == text:
            return wording.versions.contains(release)
    return not any(w.versions.contains(release) for w in record.wordings)


def _decidable_texts(source):
    data = wheels.load(source.library)
    found = _found(data)
    for record in KB.records:
        if record.library != source.library:
            continue
        for text in filter(None, (record.error_text, *(w.text for w in record.wordings))):
            pieces = wheels.literal_pieces(text)
            if pieces and any(all(p in hits for p in pieces) for hits in found.values()):
                yield record, text, pieces


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.library)
def test_every_measured_release_is_a_declared_release(source):
    data = wheels.load(source.library)
    assert sorted(data["releases"]) == sorted(source.releases), "re-run python -m explorer.probe.wheels"
    for entry in data["releases"].values():
        assert entry["wheel"].startswith(f"{source.package}-") and len(entry["sha256"]) == 64
        assert entry["files_read"] > 0


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.library)
def test_every_record_text_and_marker_was_looked_for(source):
    """A text added to a record (or a marker) is searched for in every release before this passes."""
    searched = set(wheels.load(source.library)["searched"])
    missing = (set(wheels.record_texts(source.library)) | set(wheels.marker_strings(source))) - searched
    assert not missing, f"not looked for yet (python -m explorer.probe.wheels {source.library}): {sorted(missing)[:3]}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.library)
def test_a_release_a_record_says_prints_a_text_ships_it(source):
    found = _found(wheels.load(source.library))
    scope = KB.runtimes[source.library].scope
    wrong = []
    checked = 0
    for record, text, pieces in _decidable_texts(source):
        checked += 1
        # a record of releases before the scope (torch 1.x export warnings) is checked on those releases
        before_scope = not any(scope.contains(r) and record.versions.contains(r) for r in found)
        for release, hits in found.items():
            if (scope.contains(release) or before_scope) and _prints(record, text, release) \
                    and not all(p in hits for p in pieces):
                wrong.append(f"{record.id} @ {release}: {text[:60]!r} is not in the wheel")
    assert checked >= LEAST_DECIDABLE.get(source.library, 1), "too few record texts are decidable from the wheels"
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("marker", [m for s in SOURCES for m in s.markers], ids=lambda m: m.record)
def test_a_kernel_decided_record_holds_exactly_where_its_kernel_says(marker):
    source = next(s for s in SOURCES if marker in s.markers)
    record = KB.record(marker.record)
    found = _found(wheels.load(source.library))
    for release, hits in found.items():
        holds = all(s in hits for s in marker.present) and not any(s in hits for s in marker.absent)
        assert record.versions.contains(release) is holds, (
            f"{marker.record} at {source.package} {release}: the wheel "
            f"{'lacks' if holds else 'registers'} {marker.absent or marker.present}")


def test_the_markers_are_not_all_one_way():
    """The MPS markers see kernels arrive: some record holds in an early release and not in a later one."""
    found = _found(wheels.load("torch"))
    changed = [m.record for m in wheels.TORCH.markers
               if len({all(s in hits for s in m.present) and not any(s in hits for s in m.absent)
                       for hits in found.values()}) == 2]
    assert len(changed) >= 8


def test_literal_pieces_drop_placeholders_and_short_parts():
    assert wheels.literal_pieces("The operator 'aten::{op}' is not currently implemented for the MPS device") == (
        "The operator 'aten::", "' is not currently implemented for the MPS device")
    assert wheels.literal_pieces("{a} of {b}") == ()

"""ui.screens.frame under CPython: who holds this phone (ui.core.role), asked after joining a session and
changed from the bar; a player's phone keeps the GM's controls away on every screen and keeps
its role over a reload."""
from session.links import v2 as link_v2
from session.replica import Replica
from ui.keeping import progress
from ui.screens.frame import actions as frame_actions  # noqa: F401  (registers the frame's taps)

from reading import markup, text
from samples import party_of_five
from tapping import open_link, phone, tap


def test_joining_asks_who_holds_the_phone_and_a_players_phone_keeps_the_gms_controls_away():
    party = party_of_five()
    state = phone()
    open_link(state, link_v2.session_link(Replica.from_session(party)))
    assert "Who are you at this table?" in text(state)
    ash = party["roster"][0]
    tap(state, "role-pick", role=ash["id"])
    page = markup(state)
    assert state.role == ash["id"] and state.screen == "conflict" and "You: Ash Varga" in text(state)
    assert 'data-action="tension-step"' not in page  # Tension is shown, not offered
    assert "Conflicts with adversaries are rolled on the GM's phone" in text(state)
    assert 'id="tension-player-who"' not in page  # the player's side is theirs
    state.screen = "roster"
    page = markup(state)
    assert "Add an adversary" not in page and page.count('data-action="roster-edit"') == 1
    again = progress.reopened(state)  # kept with the table in progress: a reload keeps it
    assert again.role == ash["id"]
    tap(state, "role-choose")
    tap(state, "role-pick", role="gm")
    assert 'data-action="tension-step"' in markup(state) and "You: the GM" in text(state)


# --- A person, not a sheet (issue 30, item 1) ----------------------------------------------------------

def test_a_players_phone_opens_every_system_on_their_person_never_the_first_character():
    """An older session: Ash and Brin have Tension Engine sheets only. Brin's phone shows Brin in every
    system: the missing sheets are derived (the same ids on every phone), nothing opens on Ash."""
    from ui.systems.anomaly import actions as anomaly_actions  # noqa: F401
    from ui.systems.manners import actions as manners_actions  # noqa: F401
    from ui.systems.tension import actions as tension_actions  # noqa: F401

    session = party_of_five()
    brin_id = session["roster"][1]["id"]
    brin, other = phone(session), phone(session)
    assert "Ash Varga" in markup(brin)  # before anyone said whose phone it is: the first character
    assert brin.drafts["tension"]["player"]["ref"] != brin_id
    tap(brin, "role-pick", role=brin_id)
    markup(brin)  # drawn, as the page does after every tap
    assert brin.drafts["tension"]["player"]["ref"] == brin_id  # the conflict made again, on Brin
    for system in ("anomaly", "manners", "tension"):
        tap(brin, "switch-system", system=system)
        page = text(brin)
        assert "You: Brin Olsen" in page
        assert "Waiting for Ash" not in page and "for Ash Varga" not in page
    actor = brin.drafts["anomaly"]["actor"]["ref"]
    player = brin.drafts["manners"]["player"]["ref"]
    assert brin.entry(actor)["name"] == brin.entry(player)["name"] == "Brin Olsen"
    assert [brin.entry(actor)["system"], brin.entry(player)["system"]] == ["anomaly", "manners"]
    tap(other, "role-pick", role=brin_id)
    tap(other, "switch-system", system="anomaly")
    markup(other)
    assert other.drafts["anomaly"]["actor"]["ref"] == actor  # derived alike: one sheet after a merge
    tap(brin, "switch-system", system="anomaly")
    assert [entry["name"] for entry in brin.roster("character")] == ["Brin Olsen"]  # only where Brin plays
    open_link(other, link_v2.session_link(brin.replica))  # the two phones' sheets meet: one Brin in Anomaly
    if other.pending:
        tap(other, "join-update")
    assert [entry["name"] for entry in other.roster("character")] == ["Brin Olsen"]
    assert len([entry for entry in other.session["roster"] if entry["name"] == "Brin Olsen"]) == 3


def test_a_rename_on_the_gms_phone_while_the_player_adds_their_missing_sheets_keeps_one_person():
    """The GM renames Brin Olsen to Bob Lind while Brin's phone, opened on Manner Cards, adds Brin's missing
    sheets (named Brin Olsen there): after the links meet, both phones hold one Bob Lind with three
    sheets, the player's phone says "You: Bob Lind" on Manner Cards and holds the derived sheet as its own."""
    from ui.core.holding import own_ids
    from ui.core.people import people
    from ui.screens.roster import actions as roster_actions  # noqa: F401
    from ui.systems.manners import actions as manners_actions  # noqa: F401

    session = party_of_five()
    brin_id = session["roster"][1]["id"]
    gm, brin = phone(session), phone(session)
    tap(gm, "role-pick", role="gm")
    tap(gm, "roster-edit", id=brin_id)
    tap(gm, "sheet-set", path="name", typed="Bob Lind")
    tap(gm, "roster-save")
    tap(brin, "role-pick", role=brin_id)
    tap(brin, "switch-system", system="manners")
    markup(brin)
    assert "You: Brin Olsen" in text(brin)
    for here, there in ((brin, gm), (gm, brin)):
        open_link(here, link_v2.session_link(there.replica))
        if here.pending:
            tap(here, "join-update")
    for state in (gm, brin):
        bob = [person for person in people(state.session["roster"]) if person.name == "Bob Lind"]
        assert len(bob) == 1 and len(bob[0].ids) == 3 and "Brin Olsen" not in text(state)
    assert "You: Bob Lind" in text(brin) and brin.system == "manners"
    assert own_ids(brin, brin.session["roster"]) == set(bob[0].ids)


def test_the_top_chips_show_each_characters_health_beside_their_ap():
    party = party_of_five()
    party["roster"][0]["health"] = 7
    state = phone(party)
    ash = party["roster"][0]
    assert f"{ash['name']} {ash['ap']} AP, 7 Health" in text(state)
    assert 'aria-label="Adventure Points and Health"' in markup(state)

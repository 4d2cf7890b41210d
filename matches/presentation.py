"""Every word the game table shows, in the request's language: one home.

The engine speaks in tokens (decision kinds, combat steps, zones, event kinds, reason codes).
A person never reads them: ``client_strings()`` is the phrase table the game and replay pages
get once (a ``json_script`` block), and static/matches/*.js renders every state, legal action
and event through it, with card references kept structured (a hoverable card, never an id).
Pushes stay one per viewer and language-free (matches/push.py encodes them once), so adding
words costs the push nothing. ``action_label`` renders the same phrases for API clients.

``VOCABULARY`` lists the tokens each table must cover; tests/matches/test_presentation.py
collects the engine's own names (from its source) and fails when one has no rendering.

Why it stays whole (over 600 lines): it is a phrase book, one short function per family of
the engine's tokens and almost nothing but gettext strings; the families are read together
(``client_strings``, ``VOCABULARY``, the API's ``action_label``), and splitting them would
scatter the one home of the table's words. The sentences of a refused request live in
matches/messages.py.
"""

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from cardgame import bots
from cardgame.language import current_language
from engine.catalog import KEYWORDS, STATS, SUBTYPES, TYPES


def zones() -> dict:
    return {
        "colony": _("Colony"),
        "colony_top": _("top of the colony"),
        "centre": _("Centre"),
        "credits": _("Credits"),
        "surface": _("Surface"),
        "canteen": _("Canteen"),
        "hangar": _("Hangar"),
        "ship": pgettext("zone", "on a ship"),
        "trash": _("Trash"),
        "wasteland": _("Wasteland"),
        "chain": _("Chain"),
        "crew": pgettext("attack target", "a crew card"),
        "base": pgettext("attack target", "a base"),
    }


def phases() -> dict:
    return {
        "setup": _("Setup"),
        "start": _("Start phase"),
        "main": _("Main phase"),
        "combat": _("Combat"),
        "end": _("End phase"),
        "over": _("Game over"),
    }


def steps() -> dict:
    """Combat steps (R 11.4.1.4): what the combat view and the status line say."""
    equip, pay = _("Equip: ships and crew"), _("Payment")
    return {
        "declared": _("Attack declared"),
        "equip_attackers": equip,
        "equip_attacker_crew": equip,
        "equip_defenders": equip,
        "equip_defender_crew": equip,
        "equip_window": equip,
        "pay_attacker": pay,
        "pay_defender": pay,
        "pay_window": pay,
        "end_of_payment": pay,
        "firing": _("Firing"),
        "end_firing": _("Firing"),
        "respond": _("Firing"),
        "start": _("Bombardment"),
        "bombard_select": _("Bombardment"),
        "bombard": _("Bombardment"),
        "bombard_go": _("Bombardment"),
        "bombard_end": _("Bombardment"),
        "trap": _("Bombardment"),
        "trap_paid": _("Bombardment"),
        "centre": _("Bombardment"),
        "disarm": _("Disarm"),
        "after": _("Firing"),
        "apply": _("Firing"),
        "burst": _("Firing"),
        "burst_return": _("Firing"),
        "formation": _("Firing"),
        "packets": _("Firing"),
        "window": _("Firing"),
    }


def windows() -> dict:
    """Response windows by scope (R 4.7.3, 12.2)."""
    return {
        "start": _("start of the turn"),
        "main": _("main phase"),
        "declare": _("attack declared"),
        "combat": _("combat"),
    }


def decisions() -> dict:
    """Each decision kind: a title and one line of what and why. (The rule each one comes
    from is noted beside it for us; the page shows no rule numbers: players have no rules
    text numbered as RULES.md is.)"""
    d = {
        "mulligan": (
            _("Opening hand"),
            _("Keep these five cards or shuffle them back and draw five new ones, once."),
        ),  # R 10.5
        "cut": (
            _("Cut the colony"),
            _("Your opponent shuffled their colony; choose where to cut it."),
        ),  # R 16.1
        "main": (
            _("Your main phase"),
            _("Play and pay cards, draw, attack, or end your turn."),
        ),  # R 11.3
        "respond": (_("Response window"), _("You may play an interrupt now, or pass.")),  # R 12.2
        "attackers": (
            _("Choose your attackers"),
            _("Click your active ships that attack; then confirm."),
        ),  # R 11.4.2.1
        "defenders": (
            _("Choose your defenders"),
            _("Click your active ships that defend, or confirm without any."),
        ),  # R 11.4.2.3
        "bombers": (
            _("Choose your bombers"),
            _("Click the active attacking ships that bombard the target; then confirm."),
        ),  # R 11.4.5.1
        "board": (
            _("Crew boards the ships"),
            _("Click a crew card, then the ship it boards; confirm when done."),
        ),  # R 11.4.2.2
        "fire": (
            _("Your shot"),
            _("Click an enemy ship to fire at it with the ship shown, or pass."),
        ),  # R 11.4.4.4
        "return_fire": (
            _("You are fired at"),
            _("Return fire with the ship that was shot at, or hold fire."),
        ),  # R 11.4.4.6
        "burst_return_fire": (
            _("Burst fire"),
            _("Return fire at the burst, or hold fire."),
        ),  # R 13.3
        "payments": (
            _("Payment step"),
            _("Pay for the unpaid cards aboard your ships now, or finish."),
        ),  # R 11.4.3
        "trap": (
            _("Trap"),
            _("The bombardment would destroy your unpaid base: pay it as a trap, or let it go."),
        ),  # R 4.5.9
        "distribute": (
            _("Distribute damage"),
            _("Click the ships that take the damage, one point at a time."),
        ),  # R 13.3
        "discard": (_("Discard"), _("Click the cards you discard.")),  # R 11.5.1
        "discard_ship": (
            _("Discard a ship"),
            _("Your ships are larger than 12 in total: click the ship you discard."),
        ),  # R 11.5.2
        "search": (_("Choose a card"), _("Click the card you take.")),  # R 11.3.1 M8
        "order_top": (
            _("Order the top of the colony"),
            _("Click the cards in the order they go on top."),
        ),  # R 12
        "return_to_colony": (
            _("Return cards to the colony"),
            _("Click the cards that go back to your colony."),
        ),  # R 12
        "return_to_centre": (
            _("Return a card to the centre"),
            _("Click the card that goes back to your centre."),
        ),  # R 12
        "copy_event": (_("Copy an event"), _("Click the event you copy.")),  # R 12
        "mode": (_("Choose a mode"), _("The card offers several effects: choose one.")),  # R 12
        "target": (_("Choose a target"), _("Click the target of the effect.")),  # R 12
        "opponent": (
            _("Choose the opponent"),
            _("The card says “the opponent”: choose which of your neighbours it means."),
        ),  # R 17.1.3
    }
    out = {k: {"title": t, "help": h} for k, (t, h) in d.items()}
    for k, words in decision_counts().items():
        out[k]["count"] = words
    for k, words in decision_rules().items():
        out[k]["why"] = words
    return out


def decision_counts() -> dict:
    """How many cards a decision wants (issue 34): {one, other} forms filled with the
    number still to choose (pending.info picks_left / points_left), or one sentence where
    the number is the player's."""
    return {
        "discard": ngettext_forms("Discard %(n)s card.", "Discard %(n)s cards."),
        "discard_ship": ngettext_forms("Discard %(n)s ship.", "Discard %(n)s ships."),
        "search": ngettext_forms("Take %(n)s card.", "Take up to %(n)s cards."),
        "order_top": ngettext_forms("%(n)s card to order.", "%(n)s cards to order."),
        "return_to_colony": ngettext_forms(
            "Return %(n)s card to the colony.", "Return %(n)s cards to the colony."
        ),
        "return_to_centre": ngettext_forms(
            "Return %(n)s card to the centre.", "Return %(n)s cards to the centre."
        ),
        "copy_event": ngettext_forms("Choose %(n)s event.", "Choose %(n)s events."),
        "target": ngettext_forms("Choose %(n)s target.", "Choose %(n)s targets."),
        "distribute": ngettext_forms(
            "%(n)s damage point to place.", "%(n)s damage points to place."
        ),
        "attackers": _("Any number of ships, at least one."),
        "defenders": _("Any number of ships, or none."),
        "bombers": _("Any number of the attacking ships, or none."),
        "board": _("Any number of crew cards, or none."),
        "fire": _("Choose one ship to fire at."),
    }


def decision_rules() -> dict:
    """The rule behind a decision, for the first-game guide (issue 34): what the decision
    line does not already say."""
    return {
        "mulligan": _("You may redraw your opening hand once per game; the new hand is final."),
        "main": _("Cards enter face down and unpaid: they work only once you pay their credit cost. Ships are paid when played."),
        "respond": _("Interrupts go on the chain and resolve last in, first out: the newest card takes effect first."),
        "attackers": _("Only active ships can attack. A ship that fires or bombards becomes used, and a used ship cannot defend until it is active again."),
        "defenders": _("Only defending ships can be fired at. The attacking ships still active after the firing bombard your target."),
        "board": _("A paid crew card aboard adds its printed bonuses to the ship; after the combat it returns to the canteen."),
        "fire": _("The faster ship acts first (on equal speed, the attacker). A shot takes as much armour as the shooter's firepower; at 0 armour the ship is destroyed."),
        "return_fire": _("Returning fire hits the shooter at the same moment, but makes your ship used; holding fire keeps it active."),
        "payments": _("Whatever you want to pay in this combat must be paid now; unpaid armaments and crew add nothing."),
        "bombers": _("The bombers' values add up: a colony loses that many cards; a centre card, a crew card or an unpaid base needs at least 2."),
        "distribute": _("Every point must go to a ship; a ship whose armour falls to 0 is destroyed."),
        "discard": _("At the end of your turn at most 5 cards may stay in your centre; the rest go to your wasteland face down."),
        "discard_ship": _("Your ships may add up to at most 12 in size."),
        "trap": _("A trap can be paid only now, when a bombardment of at least 2 would destroy it."),
        "cut": _("Cutting makes sure nobody knows the order of the shuffled colony."),
    }  # fmt: skip


def actions() -> dict:
    """What a button or a card's menu says; %(card)s etc. are filled on the page."""
    return {
        "mulligan": _("Mulligan: draw five new cards"),
        "keep": _("Keep this hand"),
        "cut": _("Cut at card %(at)s"),
        "place.surface": _("Place face down on the surface"),
        "place.canteen": _("Place face down in the canteen"),
        "place.ship": _("Put aboard %(ship)s"),
        "play": pgettext("card action", "Play"),
        "pay": _("Pay"),
        "upgrade": _("Add an upgrade counter (1 credit)"),
        "cash": _("Cash in upgrades with %(other)s (+1 credit)"),
        "cash.self": _("Cash in two upgrades (+1 credit)"),
        "draw": _("Draw a card (1 credit)"),
        "search": _("Search the colony (2 credits)"),
        "wasteland_draw": _("Take from the wasteland (2 credits)"),
        "attack.colony": _("Attack the colony"),
        "attack.centre": _("Attack the centre"),
        "attack.crew": _("Attack this crew card"),
        "attack.base": _("Attack this base"),
        "activate": _("Use its ability"),
        "activate.n": _("Use ability %(n)s"),
        "end_turn": _("End turn"),
        "done": _("Confirm"),
        "done.none": _("Confirm without any"),
        "pass": _("Pass"),
        "board": _("Board %(ship)s"),
        "fire": _("Fire at this ship"),
        # more than one of your ships may fire at one target: which one (issue 34)
        "fire.with": _("%(ship)s fires at this ship"),
        # a shot in words with its target, for API clients and the decision panel
        "fire.at": _("%(ship)s fires at %(target)s"),
        "stealth": _("Stealth bombardment"),
        "heavy_weapons": _("Heavy weapons"),
        "ordnance": _("Ordnance"),
        "return_fire": _("Return fire"),
        "hold_fire": _("Hold fire"),
        "decline": _("Do not pay the trap"),
        "choose": _("Choose"),
        "choose.attackers": _("Attack with this ship"),
        "choose.defenders": _("Defend with this ship"),
        "choose.bombers": _("Bombard with this ship"),
        "choose.discard": _("Discard this card"),
        "choose.discard_ship": _("Discard this ship"),
        "choose.distribute": _("1 damage to this ship"),
        "choose.search": _("Take this card"),
        "choose.order_top": _("Next on top"),
        "choose.return_to_colony": _("Back to the colony"),
        "choose.return_to_centre": _("Back to the centre"),
        "choose.copy_event": _("Copy this event"),
        "choose.target": _("Target this card"),
        "choose.opponent": _("The opponent is %(player)s"),
        "attack.player": _("%(attack)s of %(player)s"),
        "choose.mode": _("Mode %(n)s"),
    }


def events() -> dict:
    """The log's sentences, one per event kind (R 16: only what the viewer may see)."""
    return {
        "turn": _("Turn %(turn)s: %(player)s"),
        # {one, other}: board.js counts by the change's size (n), "+1 credit", "+2 credits"
        "credits": ngettext_forms(
            "%(player)s: %(change)s credit (now %(credits)s)",
            "%(player)s: %(change)s credits (now %(credits)s)",
        ),
        "pass": _("%(player)s passes"),
        # a decision with one sensible answer, taken by the site (matches.services.take_forced)
        "taken_for": _(
            "%(player)s – decided automatically (%(decision)s): there was only one sensible answer"
        ),
        "keep": _("%(player)s keeps the hand"),
        "mulligan": _("%(player)s takes a mulligan"),
        "starting_player": _("%(player)s starts"),
        "move": _("%(card)s: %(from)s → %(to)s"),
        "play": _("%(player)s plays %(card)s"),
        "announce": _("%(code)s is on the chain: it may be answered"),
        "resolve": _("%(code)s resolves"),
        "upgrades": ngettext_forms(
            "%(card)s now has %(upgrades)s upgrade counter",
            "%(card)s now has %(upgrades)s upgrade counters",
        ),
        "end_phase": _("%(player)s: end phase"),
        "end_turn": _("%(player)s ends the turn"),
        "pay": _("%(player)s pays %(cost)s for %(card)s"),
        "paid": _("%(card)s is paid"),
        "activate": _("%(player)s uses %(card)s"),
        "rotate": _("%(card)s becomes %(to)s"),
        "repair": _("%(card)s is repaired"),
        "attack": _("%(player)s attacks: %(target)s"),
        # at a table of 3+ (R 17.1) the log says whom
        "attack_on": _("%(player)s attacks %(defender)s: %(target)s"),
        "designate": _("%(player)s: %(ship)s is %(role)s"),
        "firing_step": _("The firing step begins"),
        "fire": _("%(shooter)s fires at %(target)s"),
        "damage": _("%(card)s takes %(amount)s damage"),
        "no_bombardment": _("No bombardment"),
        "combat_end": _("The combat ends"),
        "end_combat": _("The combat ends"),
        "board": _("%(card)s boards %(ship)s"),
        "no_defence": _("%(player)s does not defend"),
        "no_attackers": _("No ship can attack"),
        "bombard": _("Bombardment of %(total)s on the %(target)s"),
        "bombard_success": _("The bombardment hits the %(target)s"),
        "disembark": _("%(card)s returns to the canteen"),
        "return_fire": _("%(ship)s returns fire"),
        "hold_fire": _("%(ship)s holds fire"),
        "reveal": _("%(player)s looks at cards: %(zone)s"),
        "shuffle": _("%(player)s shuffles the colony"),
        "cut": _("%(by)s cuts %(player)s's colony"),
        "cost_modifier": _("%(player)s: costs change by %(amount)s"),
        "game_over": _("Game over: %(winner)s wins (%(reason)s)"),
        "game_over_none": _("Game over: nobody wins (%(reason)s)"),
        "stealth": _("%(ship)s bombards by stealth"),
        "heavy_weapons": _("%(ship)s uses heavy weapons"),
        "ordnance": _("%(ship)s uses ordnance"),
        "burst_fire": _("%(ship)s fires a burst"),
        "lost_target": _("The target is gone"),
        "neutralized": _("%(code)s is neutralized"),
        "decline": _("%(player)s declines"),
        "control": _("%(card)s changes control"),
        "mode": _("%(code)s: a mode is chosen"),
        "reorder": _("Cards are reordered"),
        "copy_event": _("The event is copied"),
        "draw": _("%(player)s draws a card"),
        "modify": _("%(card)s: %(stat)s %(amount)s"),
        "grant": _("%(card)s gains %(keyword)s"),
        "move_to.centre": _("%(card)s goes to the centre"),
        "move_to.trash": _("%(card)s goes to the trash"),
        "move_to.wasteland": _("%(card)s goes to the wasteland"),
        "move_to.colony": _("%(card)s goes back to the colony"),
        "move_to.surface": _("%(card)s goes onto the surface"),
        "move_to.canteen": _("%(card)s goes to the canteen"),
        "move_to.hangar": _("%(card)s goes to the hangar"),
        "move_to.ship": _("%(card)s goes aboard a ship"),
        "hidden_card": _("a face-down card"),
        "mulligan_back": _("%(player)s shuffles the opening hand back"),
        "eliminated": _("%(player)s is eliminated by %(by)s"),
    }


def roles() -> dict:
    return {
        "attacker": _("attacker"),
        "defender": _("defender"),
        "bomber": _("bomber"),
        "target": _("target"),
    }


def orientations() -> dict:
    return {"active": _("active"), "used": _("used"), "damaged": _("damaged")}


def reasons() -> dict:
    """How a game ended (Match.RESULTS and the engine's game_over reasons)."""
    return {
        "colony": _("a colony ran out"),
        "colony.one": _("%(name)s's colony is empty"),
        # the player reading it: "Your colony is empty", not "phone (you)'s colony is empty"
        "colony.mine": _("Your colony is empty"),
        "colony.both": _("both colonies are empty: the player whose turn it was wins"),
        "concede": _("conceded"),
        "timeout": _("out of time"),
        "judge": _("judge decision"),
        "turn_limit": _("turn limit"),
        # R 17.1.6: the ranking puts the most eliminations first, not the last one standing
        "elimination": _("most players eliminated; on a tie, the one who stayed in longer"),
        "needs_judge": _("time is up: a judge decides"),
    }


def stops() -> dict:
    """The response-window stops a player can set (docs/rulings.md, "Stops")."""
    return {
        "title": _("Stops"),
        "help": _("When should the game stop and let you respond? Automatic passes follow only these settings, never your cards."),
        "start": _("Stop at the start of my opponent's turn"),
        "main": _("Stop when my opponent plays or pays a card"),
        "declare": _("Stop when I am attacked"),
        "combat": _("Stop during combat"),
        "own": _("Stop for responses in my own turn"),
        "pass_turn": _("Pass until my turn"),
        "pass_turn_on": _("Passing until your turn"),
        "pass_turn_help": _("Answer every response window of your opponent's turn with a pass, until your own turn starts."),
        "cancel": _("Cancel"),
        "end_confirm": _("You can still attack or pay for a card. End the turn anyway?"),
        "end_confirm_yes": _("End the turn"),
        "end_confirm_no": _("Keep playing"),
        "dont_ask": _("Don't ask again"),
    }  # fmt: skip


def chat() -> dict:
    """Preset messages between players (no free text)."""
    return {
        "hello": _("Hello, good luck!"),
        "thinking": _("Thinking…"),
        "nice": _("Nice move!"),
        "oops": _("Oops."),
        "thanks": _("Thanks!"),
        "gg": _("Good game!"),
    }


def seat_name(player: dict, bot_names: dict | None = None) -> str:
    """A seat's name as the pages write it (selectors.players_of's dict): a person's name,
    or the bot's in this language, numbered when two of its kind sit at the table."""
    if not player.get("bot"):
        return player.get("name") or ""
    label = (bot_names or bots.names()).get(player["bot"], player.get("name") or "")
    if player.get("bot_number"):
        return _("%(bot)s %(n)s") % {"bot": label, "n": player["bot_number"]}
    return label


def ngettext_forms(singular: str, plural: str) -> dict:
    """A count's words in the language's two forms, {"one", "other"} (English and Hungarian
    have two): the pages' fmt picks "one" for 1 and "other" otherwise."""
    return {"one": ngettext(singular, plural, 1), "other": ngettext(singular, plural, 2)}


def ui() -> dict:
    return {
        "you": _("you"),
        "spectator": _("You are watching as a spectator."),
        "your_turn": _("Your decision"),
        "waiting": _("Waiting for %(name)s"),
        "turn": _("Turn %(n)s"),
        "active": _("%(name)s's turn"),
        "your_turn_now": _("Your turn"),
        "face_down": _("face-down card"),
        "face_down_own": _("face down"),
        "unpaid": _("unpaid"),
        "paid": _("paid"),
        "damage": _("damage"),
        "upgrades": _("upgrades"),
        "no_actions": _("Nothing for you to do until then."),
        "won": _("You won!"),
        "lost": _("You lost."),
        "winner": _("%(name)s won."),
        "draw_result": _("Nobody won."),
        "result_turns": ngettext_forms("after %(n)s turn", "after %(n)s turns"),
        "rematch": _("Rematch"),
        "replay": _("Watch the replay"),
        "last_step": _("Last step"),
        "concede_confirm": _("Concede this game?"),
        # a table of three to six (R 17.1)
        "table_of": _("Table of %(n)s"),
        "their_turn": _("their turn"),
        "deciding": _("deciding"),
        "can_attack": _("your neighbour: you may attack"),
        "out": _("eliminated"),
        "out_by": _("eliminated by %(name)s"),
        # a place in the ranking, 1st to 6th (R 17.1: up to six seats): English ordinals
        "place": {
            "1": _("1st place"),
            "2": _("2nd place"),
            "3": _("3rd place"),
            "4": _("4th place"),
            "5": _("5th place"),
            "6": _("6th place"),
        },
        "ranking": _("Ranking"),
        "stand_in": _("%(name)s (a bot plays on)"),
        # two bots of one kind at one table, told apart by number (selectors.players_of)
        "bot_numbered": _("%(bot)s %(n)s"),
        "leave_table": _("Let a bot play for me"),
        "leave_confirm": _("Leave the table? A bot plays your colony to the end."),
        "sent": _("Sent…"),
        "live": _("live"),
        "polling": _("reconnecting (updates by polling)"),
        "finished": _("finished"),
        "bank": _("time bank"),
        "decision_left": _("this decision"),
        # a clock of a day or an hour and more (a game over days, issue 37): "1 d 3 h"
        "clock_days": _("%(d)s d %(h)s h"),
        "clock_days_only": _("%(d)s d"),
        "clock_hours": _("%(h)s h %(m)s min"),
        "stale": _("The game moved on; here is the current position."),
        "not_started": _("The game has not started yet."),
        "aborted": _("This challenge was declined or withdrawn."),
        "combat": _("Combat"),
        "attackers": _("attackers"),
        "defenders": _("defenders"),
        "bombers": _("bombers"),
        "target": _("target"),
        "step": _("step"),
        "speed_order": _("Speed order"),
        "shots": _("Shots"),
        "hit": _("hit"),
        "miss": _("no damage"),
        "destroyed": _("destroyed"),
        "pass_key": _("P: pass / confirm"),
        "end_key": _("E: end turn"),
        "empty": _("empty"),
        "cards_in_centre": ngettext_forms("%(n)s card in the centre", "%(n)s cards in the centre"),
        "picked": _("%(n)s chosen"),
        "points_left": _("Damage points left: %(n)s"),
        # a combat suggestion (engine.assist.suggestion): one click sends every step of it
        "suggestion": _("Suggestion: %(action)s"),
        "accept_suggestion": _("Accept the suggestion"),
        # after a log line: that decision had one sensible answer and was taken for its player
        "taken_for": _("decided automatically: the only sensible answer"),
        "picks_left": _("Still to choose: %(n)s"),
        "cancel": _("Cancel"),
        "close": _("Close"),
        "card_menu": _("What do you do with %(card)s?"),
        "position": _("%(zone)s, card %(n)s"),
        "aboard": _("aboard %(ship)s"),
        "more_actions": _("Other actions"),
        "guide": _("First game? Here is what this decision means:"),
        "guide_hide": _("Hide the guide"),
        "guide_rule": _("First game? The rule behind it:"),
        "chat": _("Messages"),
        "chat_send": _("Send a message"),
        "printed": _("printed: %(value)s"),
        "choices": _("Your choices"),
        "card_zoom": _("The whole card"),
        "no_first_attack": _("You may not attack in your first turn"),
        "confirm_n": _("Confirm (%(n)s)"),
        "upgrade_counters": ngettext_forms("%(n)s upgrade counter", "%(n)s upgrade counters"),
        "armour_left": _("armour %(n)s"),
        "speed": STATS["speed"][current_language()],
        "firepower": STATS["firepower"][current_language()],
        "armour": STATS["armour"][current_language()],
        "bombardment": STATS["bombardment"][current_language()],
        "spd": _("SPD"),
        "fp": _("FP"),
        "arm": _("ARM"),
        "bmb": _("BMB"),
        "cost": _("Credit cost"),
        # what a play or pay button will take now, cost modifiers included (R 19.6)
        "cost_now": ngettext_forms("(%(n)s credit)", "(%(n)s credits)"),
        "chain_help": _(
            "The chain: cards played and answered in this window. They resolve from the last one up; each player may answer with an interrupt first."
        ),
        "sheet_more": _("More"),
        "sheet_less": _("Less"),
        # the replay: a search bot's weighed options at its decision (issue 18)
        "thinking": _("What the bot weighed"),
        "thinking_who": _("The top three options of %(name)s at this decision:"),
        "thinking_win_rate": _("estimated win rate"),
        "thinking_playouts": ngettext_forms("%(n)s playout", "%(n)s playouts"),
        "thinking_chosen": _("chosen"),
        "thinking_unnamed": _("an option no longer shown"),
    }


def catalogue_words() -> dict:
    lang = current_language()
    return {
        "keywords": {k: v[lang] for k, v in KEYWORDS.items()},
        "types": {k: v[lang] for k, v in TYPES.items()},
        "subtypes": {s: v[lang] for subs in SUBTYPES.values() for s, v in subs.items()},
    }


def client_strings() -> dict:
    """Every word the game and replay pages' scripts show, in the request's language."""
    return {
        "zones": zones(),
        "phases": phases(),
        "steps": steps(),
        "windows": windows(),
        "decisions": decisions(),
        "actions": actions(),
        "events": events(),
        "roles": roles(),
        "orientations": orientations(),
        "reasons": reasons(),
        "stops": stops(),
        "chat": chat(),
        "bots": bots.names(),
        "ui": ui(),
        "lang": current_language(),
        **catalogue_words(),
    }


# --- labels for API clients (the same phrases, both languages) -------------------------------

_TABLES: dict = {}


def _table(lang: str) -> dict:
    """(actions, zones) in `lang`, made once per process (the phrases do not change)."""
    table = _TABLES.get(lang)
    if table is None:
        with translation.override(lang):
            table = _TABLES[lang] = (actions(), zones())
    return table


def action_key(action: dict, decision: str | None) -> str:
    kind = action["kind"]
    if kind == "place":
        return f"place.{action['to']}"
    if kind == "attack":
        return f"attack.{action['target']}"
    if kind == "choose" and decision and f"choose.{decision}" in _table("en")[0]:
        return f"choose.{decision}"
    return kind


def action_label(
    action: dict, decision: str | None, names: dict, lang: str, cost: int | None = None
) -> str:
    """A legal action in words for API clients: its phrase and, after a dash, the card it
    acts on with its zone (names: card id -> {name, name_en, zone}); never an id. `cost`:
    what a play or pay takes now (engine.values.card_cost), said after the phrase."""
    phrases, zone_words = _table(lang)

    def card(cid):
        seen = names.get(cid)
        if not seen:
            return phrases["choose"] if cid is None else zone_words["colony_top"]
        name = (seen.get("name_en") if lang == "en" else None) or seen["name"]
        zone = zone_words.get(seen.get("zone"), "")
        return f"{name} ({zone})" if zone else name

    players = names.get("players", [])

    def player(seat):
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else ""

    opponent = decision == "opponent" and action["kind"] == "choose"
    words = {
        "player": player(action.get("value") if opponent else action.get("player")),
        "at": action.get("at"),
        "n": (action.get("ability", action.get("value", 0)) or 0) + 1,
        "ship": card(action.get("ship")),
        "other": card(action.get("b")),
    }
    text = phrases.get(action_key(action, decision), phrases["choose"]) % words
    if cost is not None:
        with translation.override(lang):
            text += " " + ngettext("(%(n)s credit)", "(%(n)s credits)", cost) % {"n": cost}
    if action["kind"] == "fire":  # the ship that fires, then the one it fires at
        with translation.override(lang):
            return phrases["fire.at"] % {
                "ship": card(action.get("ship")),
                "target": card(action.get("target")),
            }
    if action["kind"] == "attack" and words["player"]:  # a table: whom (R 17.1.2)
        text = phrases["attack.player"] % {"attack": text, "player": words["player"]}
    subject = action.get("card", action.get("a"))
    if action["kind"] == "fire":
        subject = action.get("target")
    elif action["kind"] == "choose" and decision not in ("mode", "opponent"):
        subject = action.get("value")
    elif action["kind"] in ("stealth", "heavy_weapons", "ordnance"):
        subject = action.get("ship")
    return f"{text} — {card(subject)}" if subject is not None else text


VOCABULARY = {
    "zones": zones,
    "phases": phases,
    "steps": steps,
    "windows": windows,
    "decisions": decisions,
    "events": events,
    "reasons": reasons,
}

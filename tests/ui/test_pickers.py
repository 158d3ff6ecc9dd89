"""The home screen's pickers (one widget each, their list built when first opened): every
keyboard and mouse path of the Select they replaced (Pilot, real app and store)."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.ui.screens.home import HomeScreen
from quizzer.ui.widgets.picker import Picker, PickerList
from tests.ui_support import make_app

SIZE = (100, 30)


def _home(app) -> HomeScreen:
    assert isinstance(app.screen, HomeScreen), type(app.screen)
    return app.screen


def _open(picker: Picker) -> bool:
    """Whether the picker's list is open (read afresh: keys and clicks change it)."""
    return picker.expanded


async def test_no_list_is_built_before_a_picker_opens(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        await pilot.pause()
        assert len(home.query(Picker)) == 5
        assert len(home.query(PickerList)) == 0
        await pilot.press("f", "enter")
        await pilot.pause()
        (opened,) = home.query(PickerList)
        assert opened.parent is home.query_one("#from-lang") and app.focused is opened


async def test_keys_open_move_and_pick_and_the_decks_are_recounted(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        picker = home.query_one("#from-lang", Picker)
        assert picker.value == "en"
        before = home.current_pair()
        await pilot.press("f", "enter", "down", "enter")  # English → Bengali
        await pilot.pause()
        assert picker.value == "bn" and app.focused is picker and not _open(picker)
        assert home.current_pair() != before
        assert home._counted_for == home.current_pair()  # the deck list follows
        # Space and the arrows open it too; Escape closes it and changes nothing.
        for key in ("space", "up", "down"):
            await pilot.press(key)
            await pilot.pause()
            assert _open(picker), key
            await pilot.press("escape")
            await pilot.pause()
            assert not _open(picker) and app.focused is picker and picker.value == "bn"


async def test_typing_in_an_open_list_jumps_to_a_match(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        await pilot.press("f", "enter", "r", "u", "enter")
        await pilot.pause()
        assert home.query_one("#from-lang", Picker).value == "ru"
        # "m" in an open list searches; it is not the screen's Mode key.
        mode = home.query_one("#mode", Picker)
        mode.focus()
        await pilot.press("enter", "t", "enter")
        await pilot.pause()
        assert mode.value == "typed"
        assert "type the answer" in str(home.query_one("#mode-help").render())


async def test_the_mouse_opens_and_picks(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        side = home.query_one("#to-lang", Picker)
        assert side.value == "en"
        await pilot.click("#to-lang")
        await pilot.pause()
        assert _open(side)
        await pilot.click(PickerList, offset=(2, 1))  # the second option: Bengali
        await pilot.pause()
        assert side.value == "bn" and not _open(side)
        # Focus moving away closes an open list.
        await pilot.click("#to-lang")
        await pilot.pause()
        assert _open(side)
        home.query_one("#decks").focus()
        await pilot.pause()
        assert not _open(side)


async def test_a_value_set_by_code_is_shown_and_a_bad_one_refused(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        home = _home(app)
        mode = home.query_one("#mode", Picker)
        mode.value = "typed"  # posts Changed: the screen shows the mode's help
        await pilot.pause()
        assert "type the answer" in str(home.query_one("#mode-help").render())
        assert "typed" in str(mode.render())
        with pytest.raises(ValueError, match="not one of the options"):
            mode.value = "nonsense"
        assert mode.value == "typed"

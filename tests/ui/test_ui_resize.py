"""The terminal reporting the size it already has lays nothing out again (tmux reports it
twice as the app starts); a real change of size still lays the screen out."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.geometry import Size

from quizzer.ui.screens.home import HomeScreen
from tests.ui_support import make_app


async def test_the_same_size_again_is_not_laid_out_again(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        layouts: list[object] = []
        refresh_layout = screen._refresh_layout

        def counted(*args: object, **kwargs: object) -> None:
            layouts.append(args)
            refresh_layout(*args, **kwargs)  # type: ignore[arg-type]

        screen._refresh_layout = counted  # type: ignore[method-assign]
        for _ in range(3):
            app.post_message(events.Resize(Size(100, 30), Size(100, 30)))
            await pilot.pause()
        # Textual's own first layout posts the screen its size: nothing to lay out again.
        screen.post_message(events.Resize(Size(100, 30), Size(100, 30)))
        await pilot.pause()
        await pilot.pause(0.1)
        assert layouts == []
        await pilot.resize_terminal(70, 20)
        await pilot.pause(0.2)
        assert layouts, "a new size is laid out"
        assert screen.size == Size(70, 20)
        assert screen.has_class("-narrow")  # the home screen's own resize rule still runs

"""Start-up imports only what the first screen needs: the open system's conflict screen,
never the other screens (ui.router loads them on first use)."""
import pytest

from startup_modules import SYSTEMS, startup_modules

SCREENS = ("ui.screens.roster", "ui.screens.log", "ui.screens.tables", "ui.screens.session")


@pytest.mark.parametrize("system", SYSTEMS)
def test_start_up_loads_the_open_systems_screen_and_no_other(system):
    loaded = startup_modules(system)
    assert f"ui.systems.{system}.view" in loaded
    others = [name for name in loaded
              if name.startswith(SCREENS) or any(name.startswith(f"ui.systems.{other}.") for other in SYSTEMS
                                                   if other != system)]
    assert others == []
    assert "rules.odds" not in loaded  # odds (and icepool) load once the screen is up

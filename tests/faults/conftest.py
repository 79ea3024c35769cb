"""`--soak` lengthens the fault tests to the issue's figures (200 kills, 10,000 fuzz steps per game)."""
import pytest


def pytest_addoption(parser):
    parser.addoption("--soak", action="store_true", default=False,
                     help="run the long soak: 200 power cuts and 10,000 fuzz steps per game")


@pytest.fixture
def soak(request) -> bool:
    return request.config.getoption("--soak")

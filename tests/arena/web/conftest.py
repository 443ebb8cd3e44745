"""A headless Chromium for the page's tests (skipped where Debian's chromium is absent)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1200,1000",
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    """A Selenium driver of headless Chromium with a throwaway profile."""
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("headless Chromium is absent (/usr/bin/chromium, /usr/bin/chromedriver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tmp_path_factory.mktemp("chromium-profile")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)

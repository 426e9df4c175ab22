"""Offline and updates: registers the service worker (/sw.js) once the app is ready;
when a new version has been downloaded, #update-banner says "Update available" with
a "Reload" button. Only that tap switches versions: never a reload by itself.
"""
import asyncio

from ui.shell.page_objects import create_proxy, document, is_none, to_js, window

UPDATE_CHECK_MS = 60 * 60 * 1000  # a session at the table can last for hours

_registration = None
_keep = []  # the running task
_proxies = {}  # function -> its proxy handed to JavaScript, made once, kept for the page's lifetime


def start():
    """Call once, after the page is ready: precaching must not compete with the first boot."""
    if is_none(window.navigator.serviceWorker):  # e.g. plain http on a LAN address
        return
    _keep.append(asyncio.ensure_future(_register()))


async def _register():
    global _registration
    workers = window.navigator.serviceWorker
    try:
        _registration = await workers.register("./sw.js")
    except Exception as error:  # the app still works online
        window.console.warn(f"Tableside: offline mode unavailable: {error}")
        return
    if not is_none(_registration.waiting) and _older_version_running():
        _offer_update()
    _on_update_found()  # the browser may have found one while the page was loading
    _registration.addEventListener("updatefound", _proxy(_on_update_found))
    document.addEventListener("visibilitychange", _proxy(_check_when_visible))
    window.setInterval(_proxy(_check_for_update), UPDATE_CHECK_MS)


def _proxy(function):
    """Made at first use, not at import: the build imports this module where there is no page."""
    if function not in _proxies:
        _proxies[function] = create_proxy(function)
    return _proxies[function]


def _on_update_found(_event=None):
    installing = _registration.installing
    if not is_none(installing):
        installing.addEventListener("statechange", _proxy(_state_change))


def _state_change(event):
    # "installed" behind a running older version: an update. Otherwise it is the first
    # install, which takes over silently.
    if event.target.state == "installed" and _older_version_running():
        _offer_update()


def _older_version_running() -> bool:
    """An older version controls this page (and a newer one waits behind it). A controller
    alone does not say so: in WebKit, at a first install, the controller can already be
    the new worker while registration.active is still null (controller === waiting)."""
    controller = window.navigator.serviceWorker.controller
    return (not is_none(controller) and not is_none(_registration.active)
            and controller != _registration.waiting)  # JS objects: == is JavaScript's ===


async def _check_for_update(*_):
    try:
        await _registration.update()
    except Exception:  # offline, or the server is unreachable: try again later
        pass


async def _check_when_visible(_event):
    if document.visibilityState == "visible":
        await _check_for_update()


def _offer_update():
    banner = document.getElementById("update-banner")
    if not banner.hidden:
        return
    message = document.createElement("span")
    message.textContent = "Update available"
    button = document.createElement("button")
    button.type = "button"
    button.className = "button button-primary"
    button.textContent = "Reload"
    button.addEventListener("click", _proxy(_reload_click))
    banner.replaceChildren(message, button)
    banner.hidden = False


def _reload_click(event):
    event.currentTarget.disabled = True
    waiting = _registration.waiting
    if is_none(waiting):  # another tab has already switched to the new version
        window.location.reload()
        return
    window.navigator.serviceWorker.addEventListener(
        "controllerchange", _proxy(_controller_change), to_js({"once": True}))
    waiting.postMessage("skip-waiting")


def _controller_change(_event):
    window.location.reload()

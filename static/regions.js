// #app's regions drawn from JavaScript, at two moments:
//  - Before Python is ready, the last table: the snapshot py/ui/shell/paint_keeper.py keeps in
//    localStorage ("tableside.snapshot", format in py/ui/keeping/first_paint.py) is painted as soon as #app
//    is parsed, inert and marked "Starting…", when it belongs to this version, to the
//    session that will open and to what is saved now (a CRC-32 of each stored text it was drawn
//    from). A tap on it is not carried out: the "Starting…" note answers it. py/ui/shell/dom.py
//    then takes the same DOM over (Page.adopt), and the page goes live in place.
//  - From then on, `tableside.patch`: py/ui/shell/dom.py changes regions in place with morphdom.
// A classic script right after #app in index.html: it paints before the first frame that shows
// #app, and before PyScript's modules run (they wait for the whole document).
(() => {
  const SNAPSHOT_KEY = "tableside.snapshot";
  const INDEX_KEY = "tableside.index";
  const FORMAT = 1;
  const REGION_ID = /^[a-z][a-z0-9-]*$/;
  const NUDGE = "Starting… tap again in a moment.";
  const root = document.documentElement;
  const byId = (id) => document.getElementById(id);
  const painted = new WeakSet(); // elements painted from the snapshot
  const tableside = (window.tableside = { ...window.tableside, painted: null, patch });

  let crcTable = null;
  function crc32(text) { // zlib's CRC-32 of the UTF-8 bytes, as py/ui/keeping/first_paint.py stamps them
    if (!crcTable) {
      crcTable = new Int32Array(256);
      for (let n = 0; n < 256; n++) {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        crcTable[n] = c;
      }
    }
    const bytes = new TextEncoder().encode(text);
    let crc = -1;
    for (let i = 0; i < bytes.length; i++) crc = (crc >>> 8) ^ crcTable[(crc ^ bytes[i]) & 0xff];
    return (crc ^ -1) >>> 0;
  }

  // The regions to paint, or null when the snapshot is missing, of another version or session,
  // or older than what is saved (any text it was drawn from has changed since).
  function readSnapshot() {
    const fragment = location.hash.slice(1);
    if (fragment && fragment !== "app") return null; // a link may open another session
    const snapshot = JSON.parse(localStorage.getItem(SNAPSHOT_KEY));
    if (!snapshot || snapshot.v !== FORMAT || snapshot.version !== root.dataset.version) return null;
    const index = JSON.parse(localStorage.getItem(INDEX_KEY));
    if (!index || index.active !== snapshot.session) return null;
    const { stamps, regions } = snapshot;
    if (!Array.isArray(stamps) || !stamps.length || !Array.isArray(regions) || !regions.length) return null;
    for (const [key, stamp] of stamps) {
      const text = localStorage.getItem(key);
      if ((text === null ? null : crc32(text)) !== stamp) return null;
    }
    const wellFormed = ([id, markup]) => REGION_ID.test(id) && typeof markup === "string";
    return regions.every(wellFormed) ? regions : null;
  }

  function paint() {
    const app = byId("app");
    let regions = null;
    try {
      regions = app && readSnapshot();
    } catch {
      return; // storage refused, or unreadable text: Python draws the table when it is ready
    }
    if (!regions) return;
    app.innerHTML = regions.map(([id, markup]) => `<div id="${id}" class="region">${markup}</div>`).join("");
    app.inert = true;
    app.setAttribute("aria-busy", "true");
    for (const element of app.querySelectorAll("*")) painted.add(element);
    tableside.painted = regions;
    byId("boot-starting").hidden = false;
    // Once the frame that shows it is drawn (a task after its animation frame): for
    // bench/bench_boot.py in engines it cannot probe before the page's own scripts.
    requestAnimationFrame(() => setTimeout(() => performance.mark("tableside-painted")));
  }

  // A tap or key on the painted table is not carried out (nothing happens twice, nothing
  // happens later by surprise): the note says so, visibly.
  function nudge() {
    if (!tableside.painted || root.dataset.appState !== "loading") return;
    const note = byId("boot-starting");
    note.textContent = NUDGE;
    note.classList.remove("starting-nudge");
    void note.offsetWidth; // restart the animation
    note.classList.add("starting-nudge");
  }

  function goLive() {
    const state = root.dataset.appState;
    if (!tableside.painted || state === "loading") return;
    const app = byId("app");
    app.inert = false;
    app.removeAttribute("aria-busy");
    byId("boot-starting").hidden = true;
    tableside.painted = null;
  }

  // Used by py/ui/shell/dom.py (Page.patch), once per render: a JSON request
  //   {order: every region id when the regions themselves changed (else null),
  //    changed: [[id, markup], ...], typing, keepPainted, focus: an element id, announce: a sentence}.
  // Each changed region is morphed in place: only what differs changes. While `typing`, the field
  // being typed in is left alone (its value, caret and selection stay under the player's fingers)
  // while the rest of its region changes, e.g. the other side's panel once a total is typed; that
  // region's id is returned ("" when none was), so it is sent again, whole, once typing stops.
  // keepPainted: while the painted table is being taken over, a placeholder (aria-busy, e.g.
  // "Working out the odds…") leaves the painted content in its place: it was drawn from the same
  // saved table, so it is what the placeholder stands for.
  const CHILDREN = { childrenOnly: true };
  const KEEP_PAINTED = {
    childrenOnly: true,
    onBeforeElUpdated: (from, to) => !(painted.has(from) && to.getAttribute("aria-busy") === "true"
      && from.getAttribute("aria-busy") !== "true"),
  };
  const wrap = (id, markup) => `<div id="${id}" class="region">${markup}</div>`;

  function besideTheField(field, options) {
    return {
      ...options,
      onBeforeElUpdated: (from, to) => from !== field && (!options.onBeforeElUpdated || options.onBeforeElUpdated(from, to)),
    };
  }

  function typingRegion() {
    const field = document.activeElement;
    if (!field || !["INPUT", "TEXTAREA"].includes(field.tagName)) return "";
    return field.closest(".region")?.id ?? "";
  }

  function patch(text) {
    const { order, changed, typing, keepPainted, focus, announce } = JSON.parse(text);
    const app = byId("app");
    const options = keepPainted ? KEEP_PAINTED : CHILDREN;
    const focused = document.activeElement;
    const hadFocus = app.contains(focused);
    // Focus moves anyway: let go first, as removing the focused element costs a layout of its own.
    if (focus && hadFocus) focused.blur();
    let left = "";
    if (order) {
      const markup = new Map(changed);
      morphdom(app, `<div>${order.map((id) => wrap(id, markup.get(id))).join("")}</div>`, options);
    } else {
      const busy = typing ? typingRegion() : "";
      for (const [id, markup] of changed) {
        if (id === busy) {
          left = id;
          morphdom(byId(id), `<div>${markup}</div>`, besideTheField(focused, options));
        } else {
          morphdom(byId(id), `<div>${markup}</div>`, options);
        }
      }
    }
    if (announce) { // before focusing, which lays the page out: one layout, not two
      const announcer = byId("announcer");
      announcer.textContent = "";
      announcer.textContent = announce;
    }
    const wanted = focus && byId(focus);
    if (wanted) {
      wanted.focus();
    } else if (hadFocus && !app.contains(document.activeElement)) {
      // The focused control was replaced: the same control again if it is there, else stay in the app.
      const again = focused.id && byId(focused.id);
      (again && app.contains(again) ? again : app).focus();
    }
    settleDialog(focused, Boolean(wanted));
    return left;
  }

  // A modal dialog (role=dialog, aria-modal=true: who holds this phone, joining or updating from a
  // link, a roll shown to the GM): focus moves into it and stays there (Tab wraps, the rest of the
  // page is inert), Escape taps its [data-dismiss] button, and once it closes focus goes back to
  // what opened it.
  let opener = null;
  const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), "
    + "textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

  const openDialog = () => byId("app").querySelector("[role=dialog][aria-modal=true]");

  function settleDialog(before, focused) {
    const app = byId("app");
    const dialog = openDialog();
    for (const region of app.children) region.inert = Boolean(dialog) && !region.contains(dialog);
    if (dialog) {
      if (!dialog.contains(document.activeElement)) {
        if (!opener && before && before !== document.body && app.contains(before)) opener = before;
        const first = dialog.querySelector("[data-autofocus]") || dialog.querySelector(FOCUSABLE);
        (first || dialog).focus();
      }
    } else if (opener) {
      const back = opener.isConnected ? opener : opener.id && byId(opener.id);
      opener = null;
      if (!focused && back && app.contains(back)) back.focus();
    }
  }

  function onDialogKey(event) {
    const dialog = openDialog();
    if (!dialog) return;
    if (event.key === "Escape") {
      event.preventDefault();
      dialog.querySelector("[data-dismiss]")?.click();
    } else if (event.key === "Tab") {
      const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((item) => item.offsetParent !== null);
      if (!items.length) return;
      const first = items[0], last = items[items.length - 1];
      if (event.shiftKey ? document.activeElement === first || !dialog.contains(document.activeElement)
                         : document.activeElement === last) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      }
    }
  }

  paint(); // index.html runs this script right after #app
  // static/boot.js's early downloads, once the frame that shows the table (or the shell) is drawn.
  requestAnimationFrame(() => setTimeout(() => tableside.startDownloads?.()));
  document.addEventListener("pointerdown", nudge, true);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") nudge();
  }, true);
  document.addEventListener("keydown", onDialogKey);
  new MutationObserver(goLive).observe(root, { attributes: true, attributeFilter: ["data-app-state"] });
})();

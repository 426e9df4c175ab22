// Tableside's log store: every logged entry of every session, one IndexedDB record each,
// written once (py/session/logbook.py describes the records and these operations).
// Loaded before Python so the database is open by the time the app asks for it. Each
// operation is one transaction that settles one promise: IndexedDB closes a transaction
// when control returns to the event loop, so Python never awaits inside one.
(() => {
  "use strict";
  const NAME = "tableside";
  const STORE = "log";
  const VERSION = 1;

  // Resolves to the database, or null where there is none (no IndexedDB, or it refuses).
  const opening = new Promise((resolve) => {
    let req;
    try {
      req = indexedDB.open(NAME, VERSION);
    } catch (error) {
      resolve(null);
      return;
    }
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: ["s", "c", "d", "i"] });
      store.createIndex("id", ["s", "i"], { unique: true });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });

  // Every key of one session lies between [s] and [s, []] (an array sorts after any number).
  function range(session, before) {
    return IDBKeyRange.bound([session], before ? [session, ...before] : [session, []], false, true);
  }

  // Every refusal as a plain Error with the browser's name and message. Pyodide makes a Python
  // exception only of an object with a stack or one whose constructor is DOMException itself:
  // Chromium's quota refusal is a QuotaExceededError (a subclass, no stack), and it, like null,
  // reached Python as no exception at all (asyncio's "invalid exception object"): the await never
  // ended. A request's error reaches the transaction's onerror before tx.error holds it.
  function refusal(error, otherwise) {
    const plain = new Error(error && error.message ? String(error.message) : otherwise);
    if (error && error.name) plain.name = String(error.name);
    return plain;
  }

  async function run(mode, work) {
    const db = await opening;
    if (db === null) throw new Error("IndexedDB is not available");
    return new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      let answer;
      tx.oncomplete = () => resolve(answer);
      tx.onerror = (event) => reject(refusal(event.target.error || tx.error, "the log store refused a write"));
      tx.onabort = () => reject(refusal(tx.error, "the transaction was aborted"));
      try {
        work(tx.objectStore(STORE), (value) => { answer = value; });
      } catch (error) {  // put() itself threw (QuotaExceededError, a record it can't clone)
        try { tx.abort(); } catch (ignored) { /* already finished */ }
        reject(refusal(error, "the log store refused a write"));
      }
    });
  }

  // Walk a cursor, calling each(cursor) until it returns false or the range ends.
  function walk(source, query, direction, each) {
    const req = source.openCursor(query, direction);
    req.onsuccess = () => {
      const cursor = req.result;
      if (cursor && each(cursor) !== false) cursor.continue();
    };
  }

  // {id: record[field]} of these entry ids that are stored (one read transaction).
  function byId(session, ids, field) {
    return run("readonly", (store, answer) => {
      const found = {};
      answer(found);
      const index = store.index("id");
      for (const id of ids) {
        index.get([session, id]).onsuccess = (event) => {
          const record = event.target.result;
          if (record) found[id] = record[field];
        };
      }
    });
  }

  window.tablesideLog = {
    ready: opening.then((db) => db !== null),

    append(records) {
      return run("readwrite", (store) => {
        for (const record of records) store.put(record);
      });
    },

    page(session, before, limit) {
      return run("readonly", (store, answer) => {
        const texts = [];
        answer(texts);
        if (limit <= 0) return;
        walk(store, range(session, before), "prev", (cursor) => {
          texts.push(cursor.value.t);
          return texts.length < limit;
        });
      });
    },

    every(session) {
      return run("readonly", (store, answer) => {
        const req = store.getAll(range(session, null));
        req.onsuccess = () => answer(req.result.map((record) => record.t));
      });
    },

    kinds(session, ids) {
      return byId(session, ids, "k");
    },

    texts(session, ids) {
      return byId(session, ids, "t");
    },

    count(session) {
      return run("readonly", (store, answer) => {
        store.count(range(session, null)).onsuccess = (event) => answer(event.target.result);
      });
    },

    remove(session, keep) {
      return run("readwrite", (store) => {
        if (!keep) {
          store.delete(range(session, null));
          return;
        }
        let skipped = 0;
        walk(store, range(session, null), "prev", (cursor) => {
          if (skipped < keep) skipped += 1;
          else cursor.delete();
        });
      });
    },

    index(session) {
      return run("readonly", (store, answer) => {
        const found = [];
        answer(found);
        walk(store, range(session, null), "next", (cursor) => {
          found.push([cursor.value.i, cursor.value.k]);
        });
      });
    },

    // [clock, device, id] of every entry, oldest first: the keys alone, no record read.
    keys(session) {
      return run("readonly", (store, answer) => {
        const req = store.getAllKeys(range(session, null));
        req.onsuccess = () => answer(req.result.map((key) => key.slice(1)));
      });
    },
  };
})();

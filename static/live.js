// The live table's connections: one RTCPeerConnection with one data channel per peer (the GM's
// phone is the hub, with one per player), and no server of any kind: no STUN, no TURN, no
// signalling. Offers and answers travel as QR codes (py/session/live/signal.py makes and reads
// them); this file only hands the browser's SDP to Python and takes the SDP Python rebuilt.
// Loaded when a live table starts; nothing here runs at start-up.
//
// CSP's connect-src does not cover WebRTC (only CSP3's own `webrtc` directive would, and
// netlify.toml sets none), so the app's CSP leaves these channels alone: the tests in
// tests/browser/inside_live_*.py open them under it. Calls that fail reject with one word:
// "unsupported" (no WebRTC here), "bad-peer", "refused" (the browser refused a description),
// "no-offer" (an answer with no offer waiting), "replaced" (a newer offer or answer for the
// same peer came meanwhile), "closed" (the peer was closed meanwhile). Peers and messages are reported to one callback, listen(report):
//   report(peer, "connecting", "offer" | "answer" | "rejoin" | "interrupted")
//   report(peer, "reached", "yes" | "no")  (an answer's checks got the offering phone's reply within REACH_MS, or not)
//   report(peer, "open", "" | "standby")  ("standby": one of this phone's standbys was rejoined: it is the peer now)
//   report(peer, "closed", "here" | "replaced" | "by-peer")
//   report(peer, "failed", "no-route" | "lost" | "channel")
//   report(peer, "message", text)
//   report(peer, "dropped", "too-large" | "not-text")  (a message refused, the channel stays)
(() => {
  const MAX_MESSAGE = 200_000;  // UTF-8 bytes: the largest link the app reads unpacks to this
  const GATHER_MS = 5000;  // host candidates come in milliseconds; past this, offer what came
  const MAX_PEER_ID = 64;
  const REACH_MS = 4000;  // an answer's connection checks reach a waiting offer in milliseconds on one Wi-Fi
  const USER_INITIATED_ABORT = 12;  // SCTP's cause code (RFC 4960) when a peer closes on purpose
  // Negotiated: both sides make channel 0 themselves, so it opens without an extra round trip.
  const CHANNEL = { negotiated: true, id: 0, ordered: true };
  const encoder = new TextEncoder();
  const peers = new Map();  // peer id -> {connection, channel, state, reason, opened}
  let report = () => {};

  function listen(callback) {
    report = callback;
  }

  function tell(id, event, detail) {
    try {
      report(id, event, detail);
    } catch (error) {
      console.error("Tableside live: the report callback failed", error);
    }
  }

  const FINAL = ["closed", "failed"];

  function change(peer, state, reason) {
    if ((peer.state === state && peer.reason === reason) || FINAL.includes(peer.state)) return;
    peer.state = state;
    peer.reason = reason;
    if (FINAL.includes(state)) {  // nothing comes back from these: let the browser free the connection
      peer.channel.close();
      peer.connection.close();
      peer.end();
    }
    tell(peer.id, state, reason);
  }

  function utf8Bytes(text) {
    // One UTF-16 unit is 1 to 3 bytes (a pair, two units, is 4): count only when in doubt.
    if (text.length > MAX_MESSAGE) return text.length;
    return text.length * 3 <= MAX_MESSAGE ? text.length : encoder.encode(text).length;
  }

  function checkedId(id) {
    if (typeof id !== "string" || id.length === 0 || id.length > MAX_PEER_ID) throw new Error("bad-peer");
    return id;
  }

  function start(id, reason, certificate) {
    if (typeof RTCPeerConnection === "undefined") throw new Error("unsupported");
    close(checkedId(id), "replaced");
    const connection = new RTCPeerConnection({ iceServers: [], ...(certificate ? { certificates: [certificate] } : {}) });
    return wire(id, connection, connection.createDataChannel("tableside", CHANNEL), reason);
  }

  // A connection and its channel as peer `id`: made here, or a standby that was rejoined.
  function wire(id, connection, channel, reason) {
    const peer = { id, connection, channel, state: null, reason: null, opened: false };
    // Settles when the peer is closed: a closed connection never settles what it was doing.
    peer.ended = new Promise((resolve) => { peer.end = resolve; });
    peers.set(id, peer);
    const current = () => peers.get(id) === peer;
    channel.onopen = () => {
      peer.opened = true;
      performance.mark("tableside-live-open");
      if (current()) change(peer, "open", "");
    };
    channel.onmessage = ({ data }) => {
      if (!current()) return;
      if (typeof data !== "string") tell(id, "dropped", "not-text");
      else if (utf8Bytes(data) > MAX_MESSAGE) tell(id, "dropped", "too-large");
      else tell(id, "message", data);
    };
    channel.onclose = () => current() && change(peer, "closed", "by-peer");
    channel.onerror = ({ error }) => {
      if (!current()) return;
      // The other phone closing its end arrives as an SCTP abort, often before the close event.
      if (error?.sctpCauseCode === USER_INITIATED_ABORT) return change(peer, "closed", "by-peer");
      console.warn("Tableside live: channel error", error);
      change(peer, "failed", "channel");
    };
    connection.onconnectionstatechange = () => {
      if (!current()) return;
      const now = connection.connectionState;
      if (now === "failed") change(peer, "failed", peer.opened ? "lost" : "no-route");
      else if (now === "disconnected") change(peer, "connecting", "interrupted");
      else if (now === "connected" && peer.opened) change(peer, "open", "");
    };
    if (reason) change(peer, "connecting", reason);
    return peer;
  }

  // The local description once ICE gathering is done (no trickle: the code carries every candidate).
  async function gathered(peer) {
    const { connection } = peer;
    if (connection.iceGatheringState !== "complete") {
      const gathering = new Promise((resolve) => {
        const timer = setTimeout(done, GATHER_MS);
        function done() {
          clearTimeout(timer);
          connection.removeEventListener("icegatheringstatechange", check);
          resolve();
        }
        function check() {
          if (connection.iceGatheringState === "complete") done();
        }
        connection.addEventListener("icegatheringstatechange", check);
      });
      await Promise.race([gathering, peer.ended]);
    }
    if (peers.get(peer.id) !== peer || FINAL.includes(peer.state)) throw gone(peer);  // its code would reach nobody
    return connection.localDescription.sdp;
  }

  function gone(peer) {
    return new Error(peer.reason === "replaced" ? "replaced" : "closed");
  }

  async function describe(peer, step) {
    let ended = false;
    try {
      ended = await Promise.race([step().then(() => false), peer.ended.then(() => true)]);
    } catch (error) {
      if (peers.get(peer.id) !== peer) throw gone(peer);  // closed under it: not the description's fault
      console.warn("Tableside live: the browser refused a description", error);
      close(peer.id, "here");
      throw new Error("refused");
    }
    if (ended) throw gone(peer);
  }

  // A new connection to peer `id` (any earlier one is closed): resolves with the offer's SDP.
  async function offer(id) {
    const peer = start(id, "offer");
    await describe(peer, () => peer.connection.setLocalDescription());
    return gathered(peer);
  }

  // A new connection to peer `id` answering its offer's SDP: resolves with the answer's SDP.
  async function answer(id, offerSdp) {
    const peer = start(id, "answer");
    await describe(peer, async () => {
      await peer.connection.setRemoteDescription({ type: "offer", sdp: String(offerSdp) });
      await peer.connection.setLocalDescription();
    });
    watchReach(peer);
    return gathered(peer);
  }

  // Whether the offering phone answers this phone's connection checks: it does while its offer
  // waits, before it has this answer, so a phone whose code will never connect (the offer given up
  // or replaced, another network) can say so in seconds instead of waiting on a scan.
  async function watchReach(peer) {
    const started = Date.now();
    while (peers.get(peer.id) === peer && peer.state === "connecting" && Date.now() - started < REACH_MS) {
      try {
        const stats = await peer.connection.getStats();
        for (const report of stats.values()) {
          if (report.type !== "candidate-pair") continue;
          if (report.responsesReceived > 0 || report.state === "succeeded") return tell(peer.id, "reached", "yes");
        }
      } catch {
        return;  // closed meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (peers.get(peer.id) === peer && peer.state === "connecting") tell(peer.id, "reached", "no");
  }

  // The answer's SDP to the offer made for peer `id`; the channel opens soon after.
  async function accept(id, answerSdp) {
    const peer = peers.get(checkedId(id));
    if (!peer || peer.connection.signalingState !== "have-local-offer") throw new Error("no-offer");
    await describe(peer, () => peer.connection.setRemoteDescription({ type: "answer", sdp: String(answerSdp) }));
  }

  // True when `text` was queued for peer `id`; false when its channel is not open or the text is too large.
  function send(id, text) {
    const peer = peers.get(id);
    if (!peer || peer.channel.readyState !== "open" || typeof text !== "string") return false;
    if (utf8Bytes(text) > MAX_MESSAGE) return false;
    peer.channel.send(text);
    return true;
  }

  function close(id, reason = "here") {
    const peer = peers.get(id);
    if (!peer) return;
    peers.delete(id);
    change(peer, "closed", reason);
  }

  // "connecting", "open", "closed", "failed" (the last report; a peer closed or failed stays
  // until close(id) or a new offer or answer for it), or "none": no such peer.
  function state(id) {
    return peers.get(id)?.state ?? "none";
  }

  // --- Rejoining with no scan (py/session/live/standby.py says how) ----------------------------------
  // This phone's key: one RTCCertificate kept in IndexedDB (structured-clonable), so its DTLS
  // fingerprint is the same after a reload or a browser restart. The other phone pins that
  // fingerprint: whoever copies the stored codes without this key is refused by the handshake.
  const KEY_DB = "tableside-live", KEY_STORE = "keys", KEY = "certificate";
  const KEY_DAYS = 300;  // renewed before it expires (browsers allow a year)
  const PROBE_UFRAG = "tblprobe", PROBE_PWD = "tablesideprobe0123456789";
  const standbys = new Map();  // standby id -> {peer, connection, channel}
  let keyOfThisPhone = null, probed = null;

  function request(what) {
    return new Promise((resolve, reject) => {
      what.onsuccess = () => resolve(what.result);
      what.onerror = () => reject(what.error);
    });
  }

  async function storedKey() {
    const opening = indexedDB.open(KEY_DB, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(KEY_STORE);
    const db = await request(opening);
    try {
      let certificate = await request(db.transaction(KEY_STORE).objectStore(KEY_STORE).get(KEY));
      if (!(certificate instanceof RTCCertificate) || certificate.expires < Date.now() + 86_400_000) {
        certificate = await RTCPeerConnection.generateCertificate(
          { name: "ECDSA", namedCurve: "P-256", expires: KEY_DAYS * 86_400_000 });
        await request(db.transaction(KEY_STORE, "readwrite").objectStore(KEY_STORE).put(certificate, KEY));
      }
      return certificate;
    } finally {
      db.close();
    }
  }

  function key() {
    // No IndexedDB (a private window may refuse it): a key for this page only; rejoining then fails the handshake.
    keyOfThisPhone ??= storedKey().catch((error) => {
      console.warn("Tableside live: this phone's key could not be kept", error);
      return RTCPeerConnection.generateCertificate({ name: "ECDSA", namedCurve: "P-256" });
    });
    return keyOfThisPhone;
  }

  function withCredentials(sdp, ufrag, pwd) {
    return sdp.replace(/^a=ice-ufrag:.*$/gm, `a=ice-ufrag:${ufrag}`).replace(/^a=ice-pwd:.*$/gm, `a=ice-pwd:${pwd}`);
  }

  // Once per start: does this browser take an answer whose ICE username and password were
  // changed before setLocalDescription (Chromium plans to refuse it)? Resolves with
  // {munge, fingerprint}: the answer and this phone's key's SHA-256 fingerprint, "AB:CD:…".
  function probe() {
    probed ??= (async () => {
      if (typeof RTCPeerConnection === "undefined") throw new Error("unsupported");
      const certificate = await key();
      const offering = new RTCPeerConnection({ iceServers: [] });
      const answering = new RTCPeerConnection({ iceServers: [], certificates: [certificate] });
      try {
        offering.createDataChannel("probe", CHANNEL);
        answering.createDataChannel("probe", CHANNEL);
        await offering.setLocalDescription();
        await answering.setRemoteDescription(offering.localDescription);
        const { sdp } = await answering.createAnswer();
        const fingerprint = /^a=fingerprint:sha-256 (\S+)/im.exec(sdp)?.[1] ?? "";
        let munge = true;
        try {
          await answering.setLocalDescription({ type: "answer", sdp: withCredentials(sdp, PROBE_UFRAG, PROBE_PWD) });
        } catch (error) {
          console.info("Tableside live: this browser refuses changed ICE credentials; rejoining takes one scan", error);
          munge = false;
        }
        return { munge, fingerprint };
      } finally {
        offering.close();
        answering.close();
      }
    })();
    return probed;
  }

  // A standby for peer `id`: a connection waiting with its offer set and its addresses gathered,
  // for the other phone to rejoin after it reloads. Resolves with the offer's SDP.
  async function standby(id, standbyId) {
    if (typeof RTCPeerConnection === "undefined") throw new Error("unsupported");
    checkedId(id);
    const certificate = await key();
    const connection = new RTCPeerConnection({ iceServers: [], certificates: [certificate] });
    const channel = connection.createDataChannel("tableside", CHANNEL);
    const held = { peer: id, connection, channel };
    drop(standbyId);
    standbys.set(standbyId, held);
    channel.onopen = () => {
      if (standbys.get(standbyId) !== held) return;
      standbys.delete(standbyId);
      close(id, "replaced");  // the old channel to that phone, if it is still here, is the past
      const peer = wire(id, connection, channel, "");
      peers.set(id, peer);
      peer.opened = true;
      change(peer, "open", "standby");
    };
    connection.onconnectionstatechange = () => {
      if (connection.connectionState === "failed" && standbys.get(standbyId) === held) drop(standbyId);  // single-use
    };
    await connection.setLocalDescription();
    const started = Date.now();
    while (connection.iceGatheringState !== "complete" && Date.now() - started < GATHER_MS) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (standbys.get(standbyId) !== held) throw new Error("closed");
    return connection.localDescription.sdp;
  }

  // The other phone's answer for a standby, set in advance (its next credentials) or once its
  // one-scan code came; the standby then opens when that phone's checks arrive.
  async function expect(standbyId, answerSdp) {
    const held = standbys.get(standbyId);
    if (!held || held.connection.signalingState !== "have-local-offer") throw new Error("no-offer");
    await held.connection.setRemoteDescription({ type: "answer", sdp: String(answerSdp) });
  }

  function drop(standbyId) {
    const held = standbys.get(standbyId);
    if (!held) return;
    standbys.delete(standbyId);
    held.channel.close();
    held.connection.close();
  }

  // Rejoin peer `id` through its standby, with this phone's key: answer the standby's stored
  // offer with the stored next credentials (the standby expects them), or, when `ufrag` is "",
  // with the browser's own: resolves with that answer's SDP, for the one-scan code.
  async function rejoin(id, offerSdp, ufrag, pwd) {
    performance.mark("tableside-rejoin");  // (tests measure the handshake from here to "tableside-live-open")
    const certificate = await key();
    const peer = start(id, "rejoin", certificate);
    let local = "";
    await describe(peer, async () => {
      await peer.connection.setRemoteDescription({ type: "offer", sdp: String(offerSdp) });
      const { sdp } = await peer.connection.createAnswer();
      local = ufrag ? withCredentials(sdp, String(ufrag), String(pwd)) : sdp;
      await peer.connection.setLocalDescription({ type: "answer", sdp: local });
    });
    return ufrag ? "" : local;
  }

  (self.tableside ??= {}).live = { listen, offer, answer, accept, send, close, state, MAX_MESSAGE,
                                   probe, standby, expect, drop, rejoin };
})();

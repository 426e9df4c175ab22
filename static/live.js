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
//   report(peer, "connecting", "offer" | "answer" | "interrupted")
//   report(peer, "open", "")
//   report(peer, "closed", "here" | "replaced" | "by-peer")
//   report(peer, "failed", "no-route" | "lost" | "channel")
//   report(peer, "message", text)
//   report(peer, "dropped", "too-large" | "not-text")  (a message refused, the channel stays)
(() => {
  const MAX_MESSAGE = 200_000;  // UTF-8 bytes: the largest link the app reads unpacks to this
  const GATHER_MS = 5000;  // host candidates come in milliseconds; past this, offer what came
  const MAX_PEER_ID = 64;
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

  function start(id, reason) {
    if (typeof RTCPeerConnection === "undefined") throw new Error("unsupported");
    close(checkedId(id), "replaced");
    const connection = new RTCPeerConnection({ iceServers: [] });
    const channel = connection.createDataChannel("tableside", CHANNEL);
    const peer = { id, connection, channel, state: null, reason: null, opened: false };
    // Settles when the peer is closed: a closed connection never settles what it was doing.
    peer.ended = new Promise((resolve) => { peer.end = resolve; });
    peers.set(id, peer);
    const current = () => peers.get(id) === peer;
    channel.onopen = () => {
      peer.opened = true;
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
    change(peer, "connecting", reason);
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
    return gathered(peer);
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

  (self.tableside ??= {}).live = { listen, offer, answer, accept, send, close, state, MAX_MESSAGE };
})();

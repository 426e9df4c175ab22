// "Scan a code": the camera into a <video>, and QR codes read from it. Loaded by
// py/ui/shell/scanner.py on the first scan; nothing here runs at start-up.
// BarcodeDetector reads the code where the browser has it (Android, macOS);
// elsewhere jsQR (npm, vendored by tools/build.py, precached) is loaded now, once.
// The camera stops on success, on stop(), and as soon as the <video> leaves the page.
(() => {
  // tools/build.py writes the vendored folder's hashed name here.
  const JSQR = "./vendor/jsqr/jsQR.js";
  const EVERY_MS = 150;  // between two looks at the picture
  const HOLD_MS = 20_000;  // a held camera (see start) stops by itself after this
  let current = null;  // the running scan: {stream, stopped}
  let jsqrLoading = null;

  function loadJsqr() {
    jsqrLoading ??= new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = JSQR;
      script.onload = () => resolve(self.jsQR);
      script.onerror = () => { jsqrLoading = null; reject(new Error("jsQR did not load")); };
      document.head.append(script);
    });
    return jsqrLoading;
  }

  async function makeReader(video) {
    if ("BarcodeDetector" in self) {
      const formats = await self.BarcodeDetector.getSupportedFormats().catch(() => []);
      if (formats.includes("qr_code")) {
        const detector = new self.BarcodeDetector({ formats: ["qr_code"] });
        return ["barcode-detector", async () => (await detector.detect(video))[0]?.rawValue ?? null];
      }
    }
    const jsQR = await loadJsqr();
    const canvas = document.createElement("canvas");
    const context = canvas.getContext("2d", { willReadFrequently: true });
    return ["jsqr", async () => {
      const { videoWidth: width, videoHeight: height } = video;
      if (!width || !height) return null;
      canvas.width = width;
      canvas.height = height;
      context.drawImage(video, 0, 0, width, height);
      const code = jsQR(context.getImageData(0, 0, width, height).data, width, height,
                        { inversionAttempts: "attemptBoth" });
      return code ? code.data : null;
    }];
  }

  // Why the camera could not start, as one word for Python's sentences.
  function problem(error) {
    const name = error?.name ?? "";
    if (name === "NotAllowedError" || name === "SecurityError") return "denied";
    if (name === "NotFoundError" || name === "OverconstrainedError") return "no-camera";
    if (name === "NotReadableError" || name === "AbortError") return "busy";
    return "failed";
  }

  function end(scan) {
    scan.stopped = true;
    scan.stream?.getTracks().forEach((track) => track.stop());
    if (current === scan) current = null;
  }

  function stop() {
    if (current) end(current);
  }

  // Show the camera in the <video id=videoId> and call found(text, reader) with the first code
  // read, or failed(word) ("unsupported", "denied", "no-camera", "busy", "failed", "gone"). A code
  // matching the RegExp text `hold` leaves the camera on until stop() (or HOLD_MS): a live table's
  // phone answers an offer with its real addresses only while the camera is on.
  async function start(videoId, found, failed, hold = "") {
    stop();
    const scan = current = { stream: null, stopped: false };
    if (!navigator.mediaDevices?.getUserMedia) {
      failed("unsupported");  // no camera API at all, or a page not served securely (no TLS)
      return;
    }
    try {
      scan.stream = await navigator.mediaDevices.getUserMedia(
        { video: { facingMode: { ideal: "environment" } }, audio: false });
    } catch (error) {
      if (!scan.stopped) failed(problem(error));
      return;
    }
    if (scan.stopped || !document.getElementById(videoId)) {  // cancelled, or the screen changed, meanwhile
      const cancelled = scan.stopped;
      end(scan);
      if (!cancelled) failed("gone");
      return;
    }
    const video = document.getElementById(videoId);
    const gone = () => scan.stopped || !video.isConnected;  // a redrawn scanner is a new <video>
    video.srcObject = scan.stream;
    let read;
    try {
      await video.play();
      [scanner.reader, read] = await makeReader(video);
    } catch (error) {
      const cancelled = scan.stopped;
      end(scan);
      if (!cancelled) failed(video.isConnected ? "failed" : "gone");
      console.warn("Tableside scanner:", error);
      return;
    }
    while (!gone()) {
      const text = await read().catch(() => null);
      if (text && !gone()) {
        if (hold && new RegExp(hold).test(text)) setTimeout(() => end(scan), HOLD_MS);
        else end(scan);
        found(text, scanner.reader);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
    if (!scan.stopped) {  // the <video> left the page: the camera goes with it
      end(scan);
      failed("gone");
    }
  }

  const scanner = self.tablesideScanner = { start, stop, reader: null };
})();

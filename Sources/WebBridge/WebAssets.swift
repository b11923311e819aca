/// The pages and the module the bridge serves, kept in the binary (no files to install
/// or to find at run time).
enum WebAssets {
    /// `/gestured-web.js`: an ES module for kiosk pages (docs/PROTOCOL.md, "Web pages").
    static let module = #"""
        // gestured-web.js: gestures and runtime state for a kiosk page (docs/PROTOCOL.md, "Web pages").
        // The kinds of stream lines, told by the first of these members a line has (EventLine's order).
        export const kinds = [["stopping", "stopping"], ["mode", "mode"], ["changed", "changed"], ["dropped", "dropped"],
          ["trace", "from"], ["filtered", "filtered"], ["health", "health"], ["application-touch", "delivery"],
          ["contact", "touch"], ["event", "gesture"]];

        export function kindOf(line) {
          for (const [kind, marker] of kinds) if (marker in line) return kind;
          return null;
        }

        // One page session: the event stream, and set/mode/reset that last as long as it does.
        export class Gestured {
          #waiters = [];
          #handlers = new Map();

          // options: base (the bridge's URL, "" on its own pages), gestures and views (filters),
          // touches and trace (extra lines), onsession (called with each new session: after a
          // reconnect, the changes made through the old one were undone; make them again there).
          constructor(options = {}) {
            this.base = options.base ?? "";
            this.query = new URLSearchParams();
            for (const name of options.gestures ?? []) this.query.append("gesture", name);
            for (const name of options.views ?? []) this.query.append("view", name);
            if (options.touches) this.query.set("touches", "1");
            if (options.trace) this.query.set("trace", "1");
            this.onsession = options.onsession ?? null;
            this.session = null;
            this.closed = false;
            this.#open();
          }

          #open() {
            const query = this.query.toString();
            this.source = new EventSource(this.base + "/events" + (query ? "?" + query : ""));
            this.source.addEventListener("session", (message) => {
              this.session = JSON.parse(message.data).session;
              for (const resolve of this.#waiters.splice(0)) resolve(this.session);
              if (this.onsession) this.onsession(this.session);
            });
            this.source.onmessage = (message) => this.#dispatch(JSON.parse(message.data));
            this.source.onerror = () => {
              this.session = null;
              // EventSource retries a dropped stream itself, but not a refused one (the daemon down).
              if (this.source.readyState === EventSource.CLOSED && !this.closed) setTimeout(() => this.#open(), 2000);
            };
          }

          #dispatch(line) {
            const kind = kindOf(line);
            if (kind === "event") for (const handler of this.#handlers.get(line.gesture) ?? []) handler(line);
            for (const handler of this.#handlers.get("*") ?? []) handler(line, kind);
          }

          // handler(event) for each event of the gesture `name`; "*": handler(line, kind) for every line.
          on(name, handler) {
            if (!this.#handlers.has(name)) this.#handlers.set(name, []);
            this.#handlers.get(name).push(handler);
            return this;
          }

          // The session id, once the stream is open.
          ready() {
            return this.session ? Promise.resolve(this.session) : new Promise((resolve) => this.#waiters.push(resolve));
          }

          async #post(command, body) {
            const session = await this.ready();
            const reply = await fetch(this.base + "/" + command, {
              method: "POST",
              headers: { "Content-Type": "application/json", "Gestured-Session": session },
              body: JSON.stringify(body ?? {}),
            });
            const json = await reply.json();
            if (json.error) throw Object.assign(new Error(json.error.message), { code: json.error.code, status: reply.status });
            return json.ok;
          }

          // set({gesture: "admin_swipe", enabled: false}), set({view: "map", frame: {x: "50%"}})
          set(change) { return this.#post("set", change); }
          // mode("maintenance", {for: "60s"}); mode(null) ends it
          mode(name, options = {}) { return this.#post("mode", { mode: name ?? "none", ...options }); }
          reset(options = {}) { return this.#post("reset", options); }

          // Ends the session: the daemon undoes its changes (those without keep).
          close() {
            this.closed = true;
            this.source.close();
          }
        }
        """#

    /// `/example.html`: a kiosk page that follows the gestures and switches them.
    static let example = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>gestured: example kiosk page</title>
        <style>body{font:16px sans-serif;margin:2em} li{font-family:monospace} label{display:block}</style></head>
        <body>
        <h1>Gestures on this kiosk</h1>
        <p>Each switch is a <code>set</code> of this page's session: closing the page undoes it.</p>
        <div id="switches"></div>
        <h2>Events</h2>
        <ol id="events" reversed></ol>
        <script type="module">
        import { Gestured } from "/gestured-web.js";
        const gestured = new Gestured();
        window.gestured = gestured;
        window.received = [];
        gestured.on("*", (line, kind) => {
          if (kind !== "event" && kind !== "changed" && kind !== "mode") return;
          window.received.push(line);
          const item = document.createElement("li");
          item.textContent = JSON.stringify(line);
          const list = document.getElementById("events");
          list.prepend(item);
          while (list.children.length > 50) list.lastChild.remove();
        });
        const status = await (await fetch("/status")).json();
        for (const gesture of status.gestures ?? []) {
          const label = document.createElement("label");
          const box = document.createElement("input");
          box.type = "checkbox";
          box.checked = gesture.enabled;
          box.dataset.gesture = gesture.name;
          box.onchange = () => gestured.set({ gesture: gesture.name, enabled: box.checked });
          label.append(box, " " + gesture.name + " (" + gesture.type + " on " + gesture.view + ")");
          document.getElementById("switches").append(label);
        }
        </script>
        </body></html>
        """#

    /// `/`: the live view, the config's picture with the touches and gesture states drawn
    /// on it as they happen, and the recent history.
    static let liveView = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>gestured: live view</title>
        <style>
        body{font:14px sans-serif;margin:0;display:flex;gap:1em}
        #picture{flex:3} #picture svg{width:100%;height:auto}
        #side{flex:1;min-width:22em;padding:.5em}
        #history{font-family:monospace;font-size:12px;list-style:none;padding:0}
        .state-began,.state-changed{color:#0a6} .state-recognized,.state-ended{color:#06c}
        .state-failed,.state-cancelled{color:#a00} table{border-collapse:collapse} td{padding:0 .5em}
        </style></head>
        <body>
        <div id="picture"></div>
        <div id="side">
        <h2>gestured <span id="mode"></span></h2>
        <table id="states"></table>
        <h3>Recent</h3>
        <ol id="history"></ol>
        </div>
        <script type="module">
        import { Gestured } from "/gestured-web.js";
        const svgNS = "http://www.w3.org/2000/svg";
        const states = new Map();
        const touches = new Map();
        let overlay = null;

        async function drawPicture() {
          const text = await (await fetch("/picture.svg")).text();
          document.getElementById("picture").innerHTML = text;
          const screen = document.querySelector("#picture g.screen");
          overlay = document.createElementNS(svgNS, "g");
          overlay.setAttribute("id", "live");
          if (screen) screen.append(overlay);
          for (const touch of touches.values()) { overlay.append(touch.trail, touch.dot); }
          const status = await (await fetch("/status")).json();
          for (const g of status.gestures ?? []) if (!states.has(g.name)) states.set(g.name, { state: g.state, view: g.view });
          document.getElementById("mode").textContent = status.runtime?.mode ? "mode " + status.runtime.mode.name : "";
          drawStates();
        }

        function drawStates() {
          const table = document.getElementById("states");
          table.replaceChildren();
          for (const [name, s] of states) {
            const row = table.insertRow();
            row.insertCell().textContent = name;
            const cell = row.insertCell();
            cell.textContent = s.state;
            cell.className = "state-" + s.state;
            row.dataset.gesture = name;
          }
        }

        function element(name, attributes) {
          const node = document.createElementNS(svgNS, name);
          for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
          return node;
        }

        function contact(line) {
          const key = line.device + ":" + line.touch;
          let touch = touches.get(key);
          if (!touch) {
            touch = { points: [], trail: element("polyline", { class: "live-trail", fill: "none", stroke: "#e60", "stroke-width": 4, "stroke-opacity": 0.6 }),
                      dot: element("circle", { class: "live-touch", r: 22, fill: "#e60", "fill-opacity": 0.5, stroke: "#a30", "stroke-width": 3 }) };
            touches.set(key, touch);
            overlay?.append(touch.trail, touch.dot);
          }
          touch.points.push(line.x + "," + line.y);
          if (touch.points.length > 200) touch.points.shift();
          touch.trail.setAttribute("points", touch.points.join(" "));
          touch.dot.setAttribute("cx", line.x);
          touch.dot.setAttribute("cy", line.y);
          touch.dot.dataset.phase = line.phase;
          if (line.phase === "ended" || line.phase === "cancelled") {
            touches.delete(key);
            touch.dot.setAttribute("fill-opacity", 0.15);
            setTimeout(() => { touch.dot.remove(); touch.trail.remove(); }, 1500);
          }
        }

        // One label per gesture, where its latest event happened, gone 2 s after its last.
        const labels = new Map();
        function mark(line) {
          if (line.x === undefined || !overlay) return;
          let label = labels.get(line.gesture);
          if (!label) {
            label = { text: element("text", { class: "live-event", "font-size": 22, fill: "#06c", "font-weight": "bold" }), timer: 0 };
            labels.set(line.gesture, label);
          }
          if (!label.text.isConnected) overlay.append(label.text);
          label.text.setAttribute("x", line.x + 26);
          label.text.setAttribute("y", line.y - 26);
          label.text.textContent = line.gesture + " " + line.state;
          clearTimeout(label.timer);
          label.timer = setTimeout(() => label.text.remove(), 2000);
        }

        function remember(line, kind) {
          const item = document.createElement("li");
          const state = line.state ?? line.to ?? line.phase ?? "";
          item.className = "state-" + state;
          item.textContent = (line.t ?? 0).toFixed(3) + " " + kind + " " +
            (line.gesture ?? (line.touch !== undefined ? "touch " + line.touch : "")) + " " + state;
          const list = document.getElementById("history");
          list.prepend(item);
          while (list.children.length > 40) list.lastChild.remove();
        }

        await drawPicture();
        const gestured = new Gestured({ touches: true, trace: true });
        window.gestured = gestured;
        gestured.on("*", (line, kind) => {
          if (kind === "contact") contact(line);
          if (kind === "event") { mark(line); states.set(line.gesture, { state: line.state, view: line.view }); drawStates(); }
          if (kind === "trace") { states.set(line.gesture, { state: line.to, view: line.view }); drawStates(); }
          if (kind === "mode" || kind === "changed" || kind === "dropped") drawPicture();
          if (kind !== "contact" || line.phase !== "moved") remember(line, kind);
        });
        </script>
        </body></html>
        """#
}

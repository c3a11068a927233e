// Talking to the bot: sign-in (a local name, or Discord's authorize → our server's token exchange) and one
// WebSocket that brings the screen's state and takes its actions, reconnecting by itself.
import type { ServerFrame } from "./types";

/** Inside Discord every request goes through Discord's proxy, under /.proxy. */
export function apiBase(): string {
  return new URLSearchParams(location.search).has("frame_id") ? "/.proxy" : "";
}

export interface SignedIn {
  session: string;
  user: { id: string; name: string };
}

/** A sign-in refused: our server's words in the reader's language (none where it never answered), the HTTP
 *  status (0: no answer at all, the network or Discord's proxy failing) and how long it asked to wait. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfter: number | null = null, // seconds, from Retry-After or the answer's retry_after
  ) {
    super(message);
  }

  /** Only a matter of waiting (too many sign-ins at once, Discord or the network away): worth trying again,
   *  unlike a refusal for good (a bad code, a user not in the instance). */
  get passing(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

async function post(path: string, body: unknown): Promise<SignedIn> {
  let reply: Response;
  try {
    reply = await fetch(`${apiBase()}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Refused("", 0); // no answer: the network, or the server away
  }
  // A proxy's own error page (Discord's, while the bot is away) is no JSON: the status alone says it
  const data = (await reply.json().catch(() => ({}))) as SignedIn & { error?: string; retry_after?: number };
  if (!reply.ok) {
    const header = Number(reply.headers.get("Retry-After") ?? NaN);
    const wait = typeof data.retry_after === "number" ? data.retry_after : Number.isFinite(header) ? header : null;
    throw new Refused(data.error ?? "", reply.status, wait);
  }
  return data;
}

export function signInLocally(name: string, room: number, language: string): Promise<SignedIn> {
  return post("/api/local/signin", { name, room, language });
}

export function signInWithDiscord(code: string, instance: string, language: string): Promise<SignedIn & { access_token: string }> {
  return post("/api/token", { code, instance_id: instance, language }) as Promise<SignedIn & { access_token: string }>;
}

export type FrameHandler = (frame: ServerFrame) => void;

export class Connection {
  private socket: WebSocket | null = null;
  private retry = 500;
  private closed = false;
  table: number | null = null; // the table it shows (it asks for it again when it reconnects)

  constructor(
    private readonly session: string,
    private language: string,
    private readonly onFrame: FrameHandler,
    private readonly onStatus: (up: boolean) => void,
  ) {}

  open(): void {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${apiBase()}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retry = 500;
      socket.send(JSON.stringify({ op: "hello", session: this.session, table: this.table, language: this.language }));
    });
    socket.addEventListener("message", (event: MessageEvent<string>) => {
      const frame = JSON.parse(event.data) as ServerFrame;
      if (frame.type === "state") this.table = frame.table?.id ?? null;
      this.onFrame(frame);
      // Up once the server took the session, not as the socket opened: a move pressed before that answer (to a
      // session it may no longer know) would only be lost
      if (frame.type === "hello" && !this.closed) this.onStatus(true);
    });
    socket.addEventListener("close", () => {
      if (this.closed) return;
      this.onStatus(false);
      window.setTimeout(() => { if (!this.closed) this.open(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    });
  }

  /** Stop for good (no reconnecting). */
  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  /** Send a frame now; false if it could not be (the socket is down: the caller keeps what it was doing). */
  send(frame: Record<string, unknown>): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Speak another language: the server says everything again in it. */
  relanguage(language: string): void {
    this.language = language;
    this.socket?.close();
  }
}

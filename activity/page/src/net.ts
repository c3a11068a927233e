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

/** A sign-in our server refused: its words, in the reader's language. */
export class Refused extends Error {}

async function post(path: string, body: unknown): Promise<SignedIn> {
  const reply = await fetch(`${apiBase()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = (await reply.json()) as SignedIn & { error?: string };
  if (!reply.ok) throw new Refused(data.error ?? reply.statusText);
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
  greeted = false; // the server took its session once (a hello came)

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
      if (frame.type === "hello") this.greeted = true;
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

// The page: who the player is (Discord's sign-in inside Discord, a name per tab in local mode, with the SDK's
// mock standing in for the Discord client), then one connection that draws the table as the server sends it.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { clear, el } from "./dom";
import { setLanguage, t } from "./i18n";
import { Connection, Refused, apiBase, signInLocally, signInWithDiscord, type SignedIn } from "./net";
import type { ServerFrame } from "./types";
import { Page } from "./view";

const root = document.getElementById("app") ?? document.body;
const query = new URLSearchParams(location.search);
const room = Math.max(1, Math.min(1_000_000, Number(query.get("room") ?? "1") || 1));
const storedLanguage = sessionStorage.getItem("language");
let language = setLanguage(query.get("lang") ?? storedLanguage ?? navigator.language);
let connection: Connection | null = null;
let discord: { sdk: DiscordSDK | DiscordSDKMock; clientId: string } | null = null; // inside Discord: its client
const signedAgain: number[] = []; // when the page signed in again by itself (Date.now()), the last minute's
const SIGN_INS_A_MINUTE = 3; // silent sign-ins again in any one minute; past them the page stops
const SIGN_IN_TRIES = 12; // tries of one sign-in again refused only for now (about four minutes in all)
const SIGN_IN_MS = 20_000; // the longest one try may take (the SDK's ready or authorize may never answer)
const FIRST_SPREAD_MS = 3000; // the first try waits up to this, at random: a restarted bot's pages come apart
const GONE = new Set(["activity.not_in_instance", "activity.no_instance"]); // Discord's word: the session is over

const page = new Page(root, () => connection, (next) => {
  language = setLanguage(next);
  sessionStorage.setItem("language", language);
  page.relanguage();
  connection?.relanguage(language); // none: stopped, or signing in again (which asks in the new language)
});

/** One connection for this page: a new one closes the one before, whose frames and status then count no more. */
function connect(signed: SignedIn, table: number | null = null): void {
  connection?.close();
  const own: Connection = new Connection(
    signed.session,
    language,
    (frame) => { if (connection === own) heard(own, frame); },
    (up) => { if (connection === own) page.status(up); },
  );
  own.table = table;
  connection = own;
  own.open();
}

function heard(own: Connection, frame: ServerFrame): void {
  if (frame.type === "hello") {
    page.games = frame.games;
    page.local = frame.local;
  } else if (frame.type === "state") {
    page.tables = frame.tables ?? [];
    page.show(frame.table);
  } else if (frame.type === "hint") {
    page.hint(frame.table, frame.turn, frame.message);
  } else if (frame.type === "review") {
    page.showReview(frame.review);
  } else if (frame.key === "activity.replaced") {
    // A newer window of this session took the table (the server keeps a few per session): this one stops
    // rather than reconnect and take it back, which would only push the other out in turn.
    own.close();
    connection = null;
    page.stop(frame.message); // until reloaded: nothing here moves any more
  } else if (frame.key === "activity.signed_out") {
    // The server no longer knows this session (it restarted, or the session's time is up): sign in again.
    sessionStorage.removeItem(`session:${room}`);
    own.close();
    connection = null;
    if (page.local) {
      page.detach(); // the name form takes the page: nothing of the table drawn over it meanwhile
      localSignIn(own.table);
      page.say(frame.message);
    } else if (mayTryAgain()) void signInAgain(own.table); // Discord's sign-in asks the player nothing: no prompt
    else page.stop(frame.message); // sessions made again and again, refused at once: signing in would only loop
  } else if (GONE.has(frame.key)) {
    // Discord no longer lists the player in this activity (they left it, or it ended): the session is over for
    // good, and the page says why rather than try again
    own.close();
    connection = null;
    page.stop(frame.message);
  } else {
    page.refused(frame.message);
  }
}

/** Inside Discord, the session gone (the bot restarted, or its hours are up): the same silent sign-in as at
 *  the start, back to the same table. A restarted bot has every open page come at once, past the sign-ins it
 *  takes at a time: a refusal that is only a matter of waiting (or no answer) is tried again, later and at a
 *  moment of its own, a few times; a refusal for good (or the last try's) stops the page, saying so (it would
 *  only look alive). */
async function signInAgain(table: number | null): Promise<void> {
  signedAgain.push(Date.now());
  page.status(false); // "reconnecting", the controls disabled meanwhile
  await pause(Math.random() * FIRST_SPREAD_MS); // not all of the restarted bot's pages in the same second
  try {
    if (!discord) throw new Error("no Discord client");
    connect(await patiently(discord.sdk, discord.clientId), table);
  } catch (error: unknown) {
    page.stop(error instanceof Refused ? error.message : ""); // our server's words are the reader's; the SDK's not
  }
}

/** Discord's sign-in, tried again while its refusal is only a matter of waiting (too many sign-ins at a time, as
 *  when friends open the activity together or a restarted bot's pages all come back; Discord or the network away;
 *  no answer within SIGN_IN_MS): after the wait asked and a growing back-off with a random part, up to
 *  SIGN_IN_TRIES times. A refusal for good, or the last try's, is thrown. */
async function patiently(sdk: DiscordSDK | DiscordSDKMock, clientId: string): Promise<SignedIn> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await within(discordSignIn(sdk, clientId), SIGN_IN_MS);
    } catch (error: unknown) {
      const passing = error instanceof Refused ? error.passing : error instanceof TimedOut;
      if (!passing || tried >= SIGN_IN_TRIES) throw error;
      const asked = error instanceof Refused ? (error.retryAfter ?? 0) : 0;
      const wait = Math.max(asked, Math.min(2 ** (tried - 1), 32)); // seconds: as asked, at least 1, 2, 4… 32
      await pause((wait + Math.random() * Math.min(wait, 10)) * 1000);
    }
  }
}

/** Whether the page may sign in again silently now: a few times a minute (sessions refused as soon as made
 *  would otherwise have it sign in again and again). */
function mayTryAgain(): boolean {
  const now = Date.now();
  while (signedAgain.length && now - (signedAgain[0] ?? now) > 60_000) signedAgain.shift();
  return signedAgain.length < SIGN_INS_A_MINUTE;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => { window.setTimeout(resolve, ms); });
}

/** A sign-in that took too long (the SDK's ready or authorize never answering). */
class TimedOut extends Error {}

/** `promise`, or TimedOut after `ms` (what it gives later is dropped). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = window.setTimeout(() => { reject(new TimedOut()); }, ms);
    promise.then(
      (value) => { window.clearTimeout(timer); resolve(value); },
      (error: unknown) => { window.clearTimeout(timer); reject(error instanceof Error ? error : new Error(String(error))); },
    );
  });
}

/** Local mode: a name for this tab (kept for this tab only, so a reload comes back to the same seat), and
 *  the table to go back to (a session gone under it: signed in again, the same table). */
function localSignIn(table: number | null = null): void {
  const saved = sessionStorage.getItem(`session:${room}`);
  if (saved) {
    connect(JSON.parse(saved) as SignedIn, table);
    return;
  }
  clear(root);
  const name = el("input", { id: "name", name: "name", maxlength: 32, required: true, autocomplete: "nickname" });
  const go = el("button", { class: "btn primary", type: "submit", text: t("screen.sign_in_go") });
  const form = el("form", { class: "panel form signin" }, [
    el("h1", { text: t("screen.sign_in_title") }),
    el("p", { class: "muted", text: t("screen.local_note") }),
    el("label", { for: "name" }, [el("span", { text: t("screen.sign_in_name") }), name]),
    go,
    el("p", { class: "note", id: "note", role: "status" }),
  ]);
  let signing = false; // one sign-in at a time: a second submit (a double click) would open a second socket
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (signing) return;
    signing = true;
    go.setAttribute("aria-disabled", "true");
    signInLocally(name.value, room, language).then(
      (signed) => {
        sessionStorage.setItem(`session:${room}`, JSON.stringify(signed));
        connect(signed, table);
      },
      (error: unknown) => {
        signing = false;
        go.removeAttribute("aria-disabled");
        const note = form.querySelector("#note");
        // no answer at all (the network, or the server away) comes with no words of the server's: the page says it
        const said = error instanceof Error ? error.message : String(error);
        if (note) note.textContent = said || t("screen.unreachable");
      },
    );
  });
  root.append(form);
  name.focus();
}

interface Mode {
  local: boolean;
  client_id: string | null;
  stand_in: boolean; // the bot talks to a stand-in for Discord (its tests): the SDK's mock may sign in here
}

/** Discord's sign-in: the client's authorize gives a code, which our server checks with Discord. */
async function discordSignIn(sdk: DiscordSDK | DiscordSDKMock, clientId: string): Promise<SignedIn> {
  discord = { sdk, clientId };
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify", "guilds.members.read"], // the second: the player's nickname on the server, as in chat
  });
  const signed = await signInWithDiscord(code, sdk.instanceId, language);
  await sdk.commands.authenticate({ access_token: signed.access_token });
  return signed;
}

async function start(): Promise<void> {
  clear(root);
  root.append(el("p", { class: "muted", text: t("screen.connecting") }));
  const mode = (await (await fetch(`${apiBase()}/api/mode`)).json()) as Mode;
  const clientId = mode.client_id ?? "local";
  page.local = mode.local;
  if (mode.local) {
    // No Discord client around: the SDK's mock plays its part, in a channel of its own (the room).
    const sdk = new DiscordSDKMock(clientId, null, String(room), null);
    await sdk.ready();
    localSignIn();
    return;
  }
  if (query.has("frame_id")) {
    connect(await patiently(new DiscordSDK(clientId), clientId));
    return;
  }
  const mockCode = query.get("mock_code");
  if (mode.stand_in && mockCode) {
    // Against a stand-in for Discord: the mock's authorize gives the code that stand-in issued.
    const sdk = new DiscordSDKMock(clientId, null, null, null);
    sdk._updateCommandMocks({ authorize: () => Promise.resolve({ code: mockCode }) });
    connect(await patiently(sdk, clientId));
    return;
  }
  clear(root);
  root.append(el("p", { class: "panel", text: t("screen.open_in_discord") }));
}

start().catch((error: unknown) => {
  clear(root);
  const said = error instanceof Error ? error.message : String(error); // none from a sign-in given up on
  root.append(el("p", { class: "note", role: "alert", text: said || t("screen.stopped") }));
});

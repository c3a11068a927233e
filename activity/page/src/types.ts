// What the server sends (activity/screen.py): a screen drawn from one seat's view, or the public one.

export interface Played {
  seat: number;
  card: string;
}

export interface SeatScreen {
  index: number;
  name: string;
  label: string;
  computer: boolean;
  me: boolean;
  acting: boolean;
  parts: string[];
  cards: number;
  absent: boolean;
  resigned: boolean;
}

export interface ActionScreen {
  action: string;
  label: string;
}

export interface ChoiceScreen {
  kind: "card" | "cards" | "number" | "word" | "list";
  prompt: string;
  actions: ActionScreen[];
  count: number;
  notes: { card: string; text: string }[];
  confirm: { action: string; text: string }[];
  cards?: { card: string; actions: string[] }[];
  numbers?: { number: number; label: string; actions: string[] }[];
  list_cards?: { card: string; action: string }[]; // a long list of cards to name: laid out by suit
}

export interface LobbyScreen {
  host: boolean;
  seated: boolean;
  seats: { key: number; name: string; computer: boolean; host: boolean }[];
  players: number[];
  most: number; // the most seats the table takes
  full: boolean; // every seat taken: nobody may join, no computer may be seated
  options: string[];
  hints: boolean;
}

export interface TableScreen {
  id: number;
  version: number;
  actions: number;
  status: "lobby" | "playing" | "finished" | "abandoned";
  title: string;
  seat: number | null;
  turn: number;
  hints: boolean;
  lobby?: LobbyScreen;
  phase?: string; // the game's phase ("bidding", "playing"…): a new one is a new step of the match
  header?: string[];
  seats?: SeatScreen[];
  to_act?: number[];
  turn_line?: string;
  turn_ends?: string | null;
  hand?: string[];
  hand_notes?: string[];
  trick?: Played[];
  leader?: number | null;
  last_trick?: { cards: Played[]; winner: number | null; text: string } | null;
  face_up?: { title: string; cards: string[] }[];
  choices?: ChoiceScreen[];
  sheet?: SheetTable | null;
  scores?: number[];
  winners?: number[] | null;
  final?: FinalScreen;
}

/** A deal's score sheet as a table: column heads (may be empty), a row of figures per seat, the notes. */
export interface SheetTable {
  title: string;
  columns: string[];
  rows: { seat: number; name: string; cells: string[] }[];
  notes: string[];
}

/** The last scored deal, trick by trick (sent when asked for, as the chat's "Last deal"). */
export interface ReviewScreen {
  table: number;
  deal: number;
  title: string;
  tricks: { number: number; cards: Played[]; winner: number | null; text: string }[];
  sheet: SheetTable | null;
  hands: { seat: number; title: string; cards: string[] }[]; // only once the match is over
}

/** The end of the match: standings (with rating changes once stored) and every seat's running totals. */
export interface FinalScreen {
  standings: { seat: number; name: string; place: number | null; score: number; winner: boolean; rating: string }[];
  unrated: string;
  chart: { title: string; x: string; y: string; names: string[]; lines: number[][] } | null;
}

/** An open table of the channel, when there are several to choose from. */
export interface TableChoice {
  id: number;
  title: string;
  seated: string;
}

export interface GameOption {
  name: string;
  label: string;
  kind: "bool" | "int" | "choice";
  default: boolean | number | string;
  choices: { value: string; label: string }[];
  values: number[];
  low: number;
  high: number;
  needs: { name: string; values: (boolean | number | string)[] }[]; // other options' values it plays under
}

export interface GameEntry {
  name: string;
  label: string;
  players: number[];
  default_players: number;
  options: GameOption[];
  quick: Record<string, boolean | number | string>;
}

export type ServerFrame =
  | { type: "hello"; user: { id: string; name: string }; local: boolean; language: string; games: GameEntry[] }
  | { type: "state"; table: TableScreen | null; tables?: TableChoice[] }
  | { type: "error"; key: string; message: string }
  | { type: "hint"; table: number; turn: number; message: string } // the seat's turn (moves made) when asked
  | { type: "review"; review: ReviewScreen };

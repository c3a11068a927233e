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
}

export interface SheetScreen {
  title: string;
  lines: string[];
  notes: string[];
}

export interface LobbyScreen {
  host: boolean;
  seated: boolean;
  seats: { key: number; name: string; computer: boolean; host: boolean }[];
  players: number[];
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
  sheet?: SheetScreen | null;
  scores?: number[];
  winners?: number[] | null;
  final?: { name: string; score: number; winner: boolean }[];
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
  | { type: "hint"; message: string };

// A turn's clock as people read time: "4:59 left" above a minute, then "42 s left" (残り4:59, 残り42秒).
import { t } from "./i18n";

export function timeLeft(seconds: number): string {
  if (seconds < 60) return t("screen.seconds_left", { seconds });
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return t("screen.time_left", { time: `${minutes}:${rest}` });
}

// Times sent in UTC (<time datetime="...Z" data-local>, from the local_time template
// tag) shown in the reader's own zone, with the zone named: "Thu 26 Nov, 18:17
// (Europe/Paris)". Without this script the page's UTC text stays, and says UTC.

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const format = new Intl.DateTimeFormat("en-GB", {
  timeZone: zone,
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "Thu 26 Nov, 18:17 (Europe/Paris)" for an ISO 8601 moment. */
export function localTime(iso) {
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.day} ${parts.month}, ${parts.hour}:${parts.minute} (${zone})`;
}

/** Rewrite every such <time> under ``root``. */
export function showLocalTimes(root = document) {
  for (const element of root.querySelectorAll("time[data-local]")) {
    element.textContent = localTime(element.dateTime);
    element.title = element.dateTime.replace("T", " ").replace("Z", " UTC");
  }
}

showLocalTimes();

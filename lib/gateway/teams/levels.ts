/** The levels above a key, outermost last. */
export const LEVELS = ["user", "team", "organisation"] as const;
export type Level = (typeof LEVELS)[number];

/**
 * A level's id among counters and budgets: its own namespace (user:ID, team:ID, org:ID), apart from key
 * lineages (`key_…`, no colon).
 */
export const counterId = (level: Level, id: string): string => `${level === "organisation" ? "org" : level}:${id}`;

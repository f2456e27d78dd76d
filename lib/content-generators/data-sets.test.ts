import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";
import { describe, expect, it } from "vitest";
import { JOKE_SETS, jokeSet, TEXT_SETS, textSet } from "./data-sets.ts";

const allSets = [
  ...TEXT_SETS.map((name) => ({ name, lines: textSet(name).map((i) => i.text) })),
  ...JOKE_SETS.map((name) => ({ name, lines: jokeSet(name).map((i) => i.text) })),
];

// obscenity's English list covers profanity and slurs, including spelled-around variants.
const profanity = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

// Insults must never target disability, looks or who someone is: these words have no place in one.
const OFF_LIMITS_IN_INSULTS = [
  "stupid",
  "idiot",
  "idiots",
  "moron",
  "dumb",
  "imbecile",
  "cretin",
  "crazy",
  "insane",
  "psycho",
  "lame",
  "mental",
  "brainless",
  "deaf",
  "blind",
  "ugly",
  "fat",
  "hideous",
  "skinny",
  "bald",
  "obese",
  "face",
  "nose",
  "teeth",
  "hair",
  "weight",
  "old",
  "girl",
  "woman",
  "women",
  "gay",
  "accent",
  "foreign",
  "foreigner",
  "religion",
  "race",
];

const words = (line: string) => line.toLowerCase().match(/[a-z']+/g) ?? [];

describe("shipped generator data", () => {
  it.each(allSets)("$name has at least 150 distinct, non-empty lines", ({ lines }) => {
    expect(lines.length).toBeGreaterThanOrEqual(150);
    expect(lines.every((l) => l.trim().length > 0 && l === l.trim())).toBe(true);
    const normalised = lines.map((l) =>
      l
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, " ")
        .trim(),
    );
    expect(new Set(normalised).size).toBe(lines.length);
  });

  it.each(JOKE_SETS)("%s have distinct setups and non-empty punchlines", (name) => {
    const jokes = jokeSet(name);
    expect(new Set(jokes.map((j) => j.setup.toLowerCase())).size).toBe(jokes.length);
    expect(
      jokes.every((j) => j.setup.length > 0 && j.punchline.length > 0 && j.text === `${j.setup} ${j.punchline}`),
    ).toBe(true);
  });

  it.each(allSets)("$name contains no profanity or slurs", ({ lines }) => {
    expect(lines.filter((l) => profanity.hasMatch(l))).toEqual([]);
  });

  it("the profanity check can fail", () => {
    expect(profanity.hasMatch("You are a total shithead.")).toBe(true);
    expect(profanity.hasMatch("You are a total sh1thead.")).toBe(true);
  });

  it("insults avoid disability, looks and protected characteristics", () => {
    const offLimits = new Set(OFF_LIMITS_IN_INSULTS);
    const hits = textSet("insults").filter((i) => words(i.text).some((w) => offLimits.has(w)));
    expect(hits).toEqual([]);
  });

  it("numbers items from 1 in file order, so an id always means the same line", () => {
    expect(
      textSet("compliments")
        .map((i) => i.id)
        .slice(0, 3),
    ).toEqual([1, 2, 3]);
    expect(jokeSet("dadjokes").at(-1)!.id).toBe(jokeSet("dadjokes").length);
  });
});

import ESpeakNg from "espeak-ng";
import { GatewayError } from "../../../errors.ts";
import { wavToMp3 } from "./mp3.ts";

export type EspeakLanguage = { code: string; name: string; aliases: string[] };

let languages: Promise<EspeakLanguage[]> | undefined;

/** The voices espeak-ng ships, read once from `espeak-ng --voices`. */
export function espeakLanguages(): Promise<EspeakLanguage[]> {
  languages ??= (async () => {
    const lines: string[] = [];
    await ESpeakNg({ arguments: ["--voices"], print: (line) => lines.push(line), printErr: () => {} });
    return (
      lines
        .slice(1)
        .map((line) => ({ line, cols: line.trim().split(/\s+/) }))
        .filter(({ cols }) => cols.length >= 4)
        // Trailing "(en 2)(en-gb 3)" groups name the codes this voice also answers to.
        .map(({ line, cols }) => ({
          code: cols[1]!,
          name: cols[3]!.replace(/_/g, " "),
          aliases: [...line.matchAll(/\(([\w-]+) \d+\)/g)].map((m) => m[1]!),
        }))
        .sort((a, b) => a.code.localeCompare(b.code))
    );
  })();
  return languages;
}

/**
 * Speaks text offline with espeak-ng (WebAssembly) and encodes MP3. The text goes in through a
 * file, never the argument list, so text that looks like a flag is read as text.
 */
export async function espeakMp3(text: string, lang: string, speed = 1): Promise<Buffer> {
  const known = await espeakLanguages();
  if (!known.some((l) => l.code === lang || l.aliases.includes(lang))) {
    throw new GatewayError(
      400,
      `unknown lang '${lang}' for espeak: see GET /v1/utils/languages for the ${known.length} codes`,
    );
  }
  const wordsPerMinute = String(Math.round(175 * speed));
  const engine = await ESpeakNg({
    arguments: ["-w", "out.wav", "-v", lang, "-s", wordsPerMinute, "-f", "in.txt"],
    preRun: [(m) => m.FS.writeFile("in.txt", text)],
    print: () => {},
    printErr: () => {},
  });
  return wavToMp3(engine.FS.readFile("out.wav"));
}

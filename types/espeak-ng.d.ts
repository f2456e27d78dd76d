declare module "espeak-ng" {
  type EmscriptenFs = { writeFile(path: string, data: string | Uint8Array): void; readFile(path: string): Uint8Array };
  type Module = { FS: EmscriptenFs };
  export default function ESpeakNg(options: {
    arguments: string[];
    preRun?: Array<(m: Module) => void>;
    print?: (line: string) => void;
    printErr?: (line: string) => void;
  }): Promise<Module>;
}

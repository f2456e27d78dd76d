declare module "@citation-js/core" {
  type CslData = Record<string, unknown>;
  export class Cite {
    constructor(data: CslData | CslData[]);
    format(format: "bibliography", options: { format: "text" | "html"; template: string; lang: string }): string;
    format(format: "bibtex"): string;
  }
  export const plugins: {
    config: {
      get(name: "@csl"): {
        styles: { add(name: string, xml: string): void };
        locales: { add(name: string, xml: string): void };
      };
    };
  };
}
declare module "@citation-js/plugin-csl";
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/name" {
  export function parse(name: string): Record<string, string>;
}

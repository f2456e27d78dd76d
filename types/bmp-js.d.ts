declare module "bmp-js" {
  export function encode(
    image: { data: Buffer; width: number; height: number },
    quality?: number,
  ): { data: Buffer; width: number; height: number };
  export function decode(buffer: Buffer): { data: Buffer; width: number; height: number };
}

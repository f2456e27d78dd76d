import { stripLayout } from "@/lib/console/aac.ts";

export type StripCard = { word: string; iconUrl: string | null };

function loadImage(src: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const img = new Image();
    // Library symbols come from another origin: without CORS approval they would taint the canvas.
    img.crossOrigin = "anonymous";
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = src;
  });
}

/** Draws the strip (pictogram over word, one card per word) on a canvas and returns it as a PNG blob. */
export async function stripToPng(cards: StripCard[]): Promise<Blob> {
  const layout = stripLayout(cards.length);
  const canvas = document.createElement("canvas");
  canvas.width = layout.width;
  canvas.height = layout.height;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const images = await Promise.all(cards.map((c) => (c.iconUrl ? loadImage(c.iconUrl) : Promise.resolve(null))));
  cards.forEach((card, i) => {
    const box = layout.cards[i]!;
    ctx.strokeStyle = "#94a3b8";
    ctx.lineWidth = 2;
    ctx.strokeRect(box.x, box.y, box.size, box.size + 36);
    const img = images[i];
    if (img) {
      const scale = Math.min((box.size - 16) / img.naturalWidth, (box.size - 16) / img.naturalHeight);
      const w = img.naturalWidth * scale;
      const h = img.naturalHeight * scale;
      ctx.drawImage(img, box.x + (box.size - w) / 2, box.y + (box.size - h) / 2, w, h);
    } else {
      // No picture (none found, or it failed to load): the word itself, large, as on the page's text tile.
      ctx.fillStyle = "#0f172a";
      ctx.font = "700 40px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(card.word, box.x + box.size / 2, box.y + box.size / 2, box.size - 16);
      ctx.textBaseline = "alphabetic";
    }
    ctx.fillStyle = "#0f172a";
    ctx.font = "600 22px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.fillText(card.word, box.x + box.size / 2, box.labelY, box.size - 8);
  });
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the browser could not encode the PNG"))), "image/png"),
  );
}

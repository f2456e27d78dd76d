"use client";

import { useMutation } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { consoleClient, dataOf } from "@/lib/console/api.ts";
import { parseStory, startNode, Story } from "@/lib/console/story.ts";
import { ErrorState, Loading } from "../error-state";

// React Flow measures the DOM: it renders in the browser only, after the shell.
const StoryGraph = dynamic(() => import("./story-graph").then((m) => m.StoryGraph), {
  ssr: false,
  loading: () => <Loading label="Drawing the graph…" />,
});

const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const button =
  "rounded-lg border border-slate-400 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";

const EXAMPLE: Story = {
  title: "The locked door",
  nodes: [
    { id: "start", type: "start", text: "You wake in a small room. There is a door and a window." },
    { id: "door", type: "story", text: "The door is locked, but a key glints under the bed." },
    { id: "window", type: "ending", text: "You climb out of the window into the sunshine. You are free." },
    { id: "key", type: "ending", text: "The key turns. Beyond the door is a library, and you stay to read." },
  ],
  connections: [
    { from: "start", to: "door", label: "Try the door" },
    { from: "start", to: "window", label: "Open the window" },
    { from: "door", to: "key", label: "Use the key" },
  ],
};

function Reader({ story, current, onMove }: { story: Story; current: string; onMove: (id: string) => void }) {
  const node = story.nodes.find((n) => n.id === current)!;
  const choices = story.connections.filter((c) => c.from === current);
  return (
    <section
      aria-labelledby="reader-heading"
      className="rounded-xl border border-slate-300 p-4 dark:border-slate-700"
      data-testid="reader"
    >
      <h3
        id="reader-heading"
        className="text-sm font-semibold uppercase tracking-wide text-slate-700 dark:text-slate-300"
      >
        Reader · {node.type === "ending" ? "an ending" : `at “${node.id}”`}
      </h3>
      <p className="mt-2 text-lg" aria-live="polite">
        {node.text}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        {choices.map((c, i) => (
          <button
            key={i}
            type="button"
            onClick={() => onMove(c.to)}
            className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
          >
            {c.label || `Go to ${c.to}`}
          </button>
        ))}
        {choices.length === 0 && (
          <p className="font-semibold">{node.type === "ending" ? "The end." : "No way on from here."}</p>
        )}
        {current !== startNode(story) && (
          <button type="button" onClick={() => onMove(startNode(story))} className={button}>
            Start over
          </button>
        )}
      </div>
    </section>
  );
}

export function StoryConsole() {
  const [description, setDescription] = useState("");
  const [complexity, setComplexity] = useState<"simple" | "medium" | "complex">("simple");
  const [pasted, setPasted] = useState("");
  const [pasteErrors, setPasteErrors] = useState<string[]>([]);
  const [story, setStory] = useState<Story | null>(null);
  const [current, setCurrent] = useState("");

  const show = (s: Story) => {
    setStory(s);
    setCurrent(startNode(s));
  };

  const generate = useMutation({
    mutationFn: async () =>
      Story.parse(
        await dataOf(
          consoleClient().POST("/v1/generate/story", {
            // A story to play must keep every rule: one still broken after the repair turn is an error here.
            body: { description: description.trim(), complexity, strict: true },
          }),
        ),
      ),
    onSuccess: (s) => {
      // The JSON goes into the paste box too, to be read, edited and shown again.
      setPasted(JSON.stringify(s, null, 2));
      setPasteErrors([]);
      show(s);
    },
  });
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <form
          aria-labelledby="generate-heading"
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (description.trim()) generate.mutate();
          }}
        >
          <h2 id="generate-heading" className="text-xl font-semibold">
            Generate a story
          </h2>
          <label className="flex flex-col gap-1 text-sm font-medium">
            What is it about?
            <textarea
              className={`${field} min-h-24`}
              value={description}
              maxLength={2000}
              onChange={(e) => setDescription(e.target.value)}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Size
            <select
              className={field}
              value={complexity}
              onChange={(e) => setComplexity(e.target.value as typeof complexity)}
            >
              <option value="simple">Simple (5–8 nodes)</option>
              <option value="medium">Medium (10–15 nodes)</option>
              <option value="complex">Complex (20+ nodes, several endings)</option>
            </select>
          </label>
          <button
            type="submit"
            disabled={!description.trim() || generate.isPending}
            className="self-start rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
          >
            {generate.isPending ? "Generating…" : "Generate"}
          </button>
          {generate.isPending && <Loading label="Writing the story: this can take a minute…" />}
          {generate.isError && (
            <>
              <ErrorState error={generate.error} what="Story generation" />
              <p className="text-sm text-slate-700 dark:text-slate-300">You can still paste a story as JSON.</p>
            </>
          )}
        </form>

        <form
          aria-labelledby="paste-heading"
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            const result = parseStory(pasted);
            setPasteErrors("errors" in result ? result.errors : []);
            if ("story" in result) show(result.story);
          }}
        >
          <h2 id="paste-heading" className="text-xl font-semibold">
            Or paste one
          </h2>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Story JSON: {"{title, nodes: [{id, text, type}], connections: [{from, to, label}]}"}
            <textarea
              className={`${field} min-h-40 font-mono text-xs`}
              value={pasted}
              spellCheck={false}
              onChange={(e) => setPasted(e.target.value)}
            />
          </label>
          <div className="flex gap-2">
            <button
              type="submit"
              className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
            >
              Show graph
            </button>
            <button type="button" className={button} onClick={() => setPasted(JSON.stringify(EXAMPLE, null, 2))}>
              Fill in an example
            </button>
          </div>
          {pasteErrors.length > 0 && (
            <ul role="alert" className="list-disc pl-5 text-sm text-red-800 dark:text-red-200">
              {pasteErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </form>
      </div>

      {story && (
        <section aria-labelledby="story-title" className="flex flex-col gap-4">
          <h2 id="story-title" className="text-2xl font-semibold">
            {story.title}
          </h2>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {story.nodes.length} nodes · {story.connections.length} connections ·{" "}
            {story.nodes.filter((n) => n.type === "ending").length} endings
            {story.complexity && ` · ${story.complexity}`}
            {story.provider && ` · written by ${story.provider}`}. Click a node to read from there.
          </p>
          <Reader story={story} current={current} onMove={setCurrent} />
          <StoryGraph story={story} current={current} onSelect={setCurrent} />
        </section>
      )}
    </div>
  );
}

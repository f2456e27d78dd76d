import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SampleModelProvider } from "@/components/sample-model";
import { SiteHeader } from "@/components/site-header";
import { sampleModel } from "@/lib/console/first-call.ts";
import "./globals.css";

export const metadata: Metadata = {
  title: "Unified API Gateway",
  description: "One API key for language models, research agents, public data, reference data and utilities.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {/* The first stop of the keyboard: past the site's navigation, straight to the page. */}
        <a
          href="#content"
          className="sr-only rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50"
        >
          Skip to content
        </a>
        <SiteHeader />
        <div id="content" tabIndex={-1} className="outline-none">
          <SampleModelProvider model={sampleModel()}>{children}</SampleModelProvider>
        </div>
      </body>
    </html>
  );
}

import Link from "next/link";

/**
 * Shown by a console that calls language models while its user has no model access yet (KEY_APPROVAL:
 * every sign-up gets a console, so models wait for an approved key). `instead`: the console cannot work
 * without them (it is not shown); otherwise the parts that need no model still work below.
 */
export function ModelAccessNotice({ instead }: { instead: boolean }) {
  return (
    <div
      role="note"
      data-testid="model-access-notice"
      className="rounded-xl border border-amber-300 bg-amber-50 p-6 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">Model consoles open once your key request is approved.</p>
      <p className="mt-2">
        {instead ? "This console calls language models" : "Generating here calls language models"}, which the consoles
        may use once an operator has approved an API key for your account. The other consoles work now.
      </p>
      <p className="mt-4 flex flex-wrap gap-4">
        <Link
          href="/keys/request"
          className="inline-block rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600"
        >
          Request a key
        </Link>
        <Link href="/keys" className="inline-block px-1 py-2 font-medium underline">
          See your requests
        </Link>
      </p>
    </div>
  );
}

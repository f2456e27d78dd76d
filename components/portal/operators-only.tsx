/** What an operator page shows anyone signed in who is not an operator. */
export function OperatorsOnly() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Operators only</h1>
      <p className="mt-2">This page is for the operators listed in ADMIN_EMAILS. You are signed in as someone else.</p>
    </main>
  );
}

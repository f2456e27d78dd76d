/**
 * What a form's server action answered: its message in a status region (always there, empty until
 * there is a message) and its error, if any, as an alert. `margin`: a Tailwind class for both, e.g. "mt-2".
 */
export function ActionMessages({ state, margin }: { state: { message?: string; error?: string }; margin?: string }) {
  const spaced = (className: string) => (margin ? `${margin} ${className}` : className);
  return (
    <>
      <p role="status" className={spaced("text-sm")}>
        {state.message}
      </p>
      {state.error && (
        <p role="alert" className={spaced("text-sm font-medium text-red-700 dark:text-red-400")}>
          {state.error}
        </p>
      )}
    </>
  );
}

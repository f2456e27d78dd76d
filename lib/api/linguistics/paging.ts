import { GatewayError } from "../../errors.ts";

/** Form A pages with limit/offset (default 50); Form B with page/per_page (default 100), as SPEC's defaults give. */
export const FORM_A_DEFAULT_LIMIT = 50;
export const FORM_B_DEFAULT_PER_PAGE = 100;

export type PagingInput = { limit?: number; offset?: number; page?: number; per_page?: number };
export type Paging =
  | { form: "A"; offset: number; limit: number }
  | { form: "B"; offset: number; limit: number; page: number; per_page: number };

/** Recognises the form from its fields; mixing the two is ambiguous and refused. */
export function resolvePaging(input: PagingInput): Paging {
  const formA = input.limit !== undefined || input.offset !== undefined;
  const formB = input.page !== undefined || input.per_page !== undefined;
  if (formA && formB)
    throw new GatewayError(400, "page with either limit/offset (Form A) or page/per_page (Form B), not both");
  if (formB) {
    const page = input.page ?? 1;
    const perPage = input.per_page ?? FORM_B_DEFAULT_PER_PAGE;
    return { form: "B", offset: (page - 1) * perPage, limit: perPage, page, per_page: perPage };
  }
  return { form: "A", offset: input.offset ?? 0, limit: input.limit ?? FORM_A_DEFAULT_LIMIT };
}

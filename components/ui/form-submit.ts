import type { FormEvent } from "react";

/**
 * A form's submit handler: no page reload, the fields as FormData to `send`,
 * and the form cleared once `send` succeeded (a failure keeps what was typed).
 */
export function formSubmit(send: (data: FormData) => Promise<void>) {
  return async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    await send(new FormData(form));
    form.reset();
  };
}

"use client";

import { useState, type FormEvent } from "react";
import { useCreateCredential } from "@/components/credentials/use-credentials";
import { Button, SubmitButton } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";

interface Row {
  id: number;
  field: string;
  value: string;
}

const INPUT =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm " +
  "placeholder:text-slate-400 focus:border-brand-500";
const firstRows = (): Row[] => [
  { id: 1, field: "username", value: "" },
  { id: 2, field: "password", value: "" },
];

/** Name, domain, value rows and an optional TOTP secret; what was typed is sent once and never shown back. */
export function CreateCredentialForm() {
  const create = useCreateCredential();
  const [name, setName] = useState("");
  const [domain, setDomain] = useState("");
  const [rows, setRows] = useState<Row[]>(firstRows);
  const [totp, setTotp] = useState("");
  const [stored, setStored] = useState<string | null>(null);

  const setRow = (id: number, patch: Partial<Row>) =>
    setRows((all) => all.map((row) => (row.id === id ? { ...row, ...patch } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStored(null);
    create.mutate(
      {
        name: name.trim(),
        domain: domain.trim(),
        values: Object.fromEntries(rows.map((row) => [row.field.trim(), row.value])),
        ...(totp.trim() ? { totp_secret: totp.trim() } : {}),
      },
      {
        onSuccess: (credential) => {
          setStored(credential.name);
          setName("");
          setDomain("");
          setRows(firstRows());
          setTotp("");
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Store a credential">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          required
          maxLength={64}
          pattern="[A-Za-z0-9][A-Za-z0-9._\-]*"
          placeholder="acme"
          hint="What tasks and fill_credentials call it."
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          label="Domain"
          name="domain"
          required
          maxLength={300}
          placeholder="acme.example"
          hint="Filled only on this host and its subdomains."
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
        />
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Values</legend>
        {rows.map((row, index) => (
          <div key={row.id} className="flex flex-col gap-2 sm:flex-row sm:items-center" data-testid="value-row">
            <input
              aria-label={`Name of value ${index + 1}`}
              placeholder="name, e.g. username"
              className={`${INPUT} sm:w-48`}
              required
              maxLength={32}
              pattern="[a-z][a-z0-9_]*"
              title="Lower-case letters, digits and _ (username, password, …)"
              value={row.field}
              onChange={(e) => setRow(row.id, { field: e.target.value })}
            />
            <input
              aria-label={`Value of ${row.field || `value ${index + 1}`}`}
              placeholder={`value of ${row.field || "this name"}`}
              className={`${INPUT} flex-1`}
              required
              maxLength={4096}
              type={row.field === "password" ? "password" : "text"}
              autoComplete="off"
              value={row.value}
              onChange={(e) => setRow(row.id, { value: e.target.value })}
            />
            <Button
              variant="ghost"
              aria-label={`Remove ${row.field || `value ${index + 1}`}`}
              disabled={rows.length === 1}
              onClick={() => setRows((all) => all.filter((r) => r.id !== row.id))}
            >
              Remove
            </Button>
          </div>
        ))}
        <Button
          variant="secondary"
          disabled={rows.length >= 16}
          onClick={() =>
            setRows((all) => [...all, { id: Math.max(0, ...all.map((r) => r.id)) + 1, field: "", value: "" }])
          }
        >
          Add a value
        </Button>
      </fieldset>
      <TextField
        label="TOTP secret (optional)"
        name="totp_secret"
        type="password"
        autoComplete="off"
        maxLength={256}
        placeholder="JBSW Y3DP EHPK 3PXP"
        hint="The base32 secret the site shows for authenticator apps; one-time codes are then filled too."
        value={totp}
        onChange={(e) => setTotp(e.target.value)}
      />
      {create.error && <Alert>{create.error.message}</Alert>}
      {stored && (
        <Alert tone="success">Stored “{stored}”. Its values are sealed and will not be shown again, to anyone.</Alert>
      )}
      <SubmitButton pending={create.isPending} label="Store credential" pendingLabel="Storing…" />
    </form>
  );
}

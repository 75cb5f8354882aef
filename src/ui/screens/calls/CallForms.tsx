// The call-log filter form and the outbound call form (its From number one linked to the assistant; sent after a yes naming who calls whom).
import { isE164, E164_HINT } from '../../../api/validate.js';
import { linkOfNumber, numberDid, numberLabel } from '../../../api/records.js';
import { useActions, useConsole } from '../../../store/index.js';
import { Form, type Field } from '../../components/Form.js';
import { Loading } from '../../components/Status.js';
import type { ScreenProps } from '../shared.js';

export function CallFilters({ width, height }: ScreenProps<{ name: 'call-filters' }>) {
  const actions = useActions();
  const form = useConsole((s) => s.callLog.form);
  const assistants = useConsole((s) => s.assistants.data) ?? [];
  const numbers = useConsole((s) => s.numbers.data) ?? [];
  const fields: Field[] = [
    {
      kind: 'select',
      key: 'assistantId',
      label: 'Assistant',
      options: () => [{ value: '', label: '(any)' }, ...assistants.map((a) => ({ value: a.id, label: a.name ?? a.id }))],
    },
    {
      kind: 'select',
      key: 'phoneNumberId',
      label: 'Phone number',
      options: () => [{ value: '', label: '(any)' }, ...numbers.map((n) => ({ value: n.id, label: numberLabel(n) }))],
    },
    { kind: 'text', key: 'from', label: 'From', hint: 'YYYY-MM-DD or 24h, 7d' },
    { kind: 'text', key: 'to', label: 'To', hint: 'YYYY-MM-DD or 24h, 7d' },
    { kind: 'text', key: 'id', label: 'Call id' },
  ];
  return (
    <Form
      title="Filter the call log (empty = any)"
      fields={fields}
      initial={{ ...form }}
      submitLabel="Apply filters"
      width={width}
      height={height}
      onCancel={actions.back}
      onSubmit={(v) => {
        const err = actions.applyCallFilters({
          assistantId: String(v.assistantId),
          phoneNumberId: String(v.phoneNumberId),
          from: String(v.from),
          to: String(v.to),
          id: String(v.id),
        });
        if (err) actions.flash(err, 'error');
        else actions.back();
      }}
    />
  );
}

export function CallOutbound({ route, width, height }: ScreenProps<{ name: 'call-outbound'; assistantId?: string }>) {
  const actions = useActions();
  const assistants = useConsole((s) => s.assistants.data);
  const numbers = useConsole((s) => s.numbers.data);
  const links = useConsole((s) => s.numberLinks);
  // What the last request returned when it may have placed a call: another is sent only after a yes.
  const lastAttempt = useConsole((s) => s.outboundAttempt);
  if (!assistants || !numbers) return <Loading what="assistants and numbers" />;
  const linkedTo = (assistantId: unknown) => numbers.filter((n) => linkOfNumber(n, links)?.assistantId === assistantId);
  // The numbers linked to the chosen assistant first: a customer who calls back reaches the same assistant.
  const fromOptions = (assistantId: unknown) => {
    const mine = linkedTo(assistantId);
    const label = (n: (typeof numbers)[number]) => `${numberLabel(n)}${mine.includes(n) ? ' (linked to it)' : ''}`;
    return [...mine, ...numbers.filter((n) => !mine.includes(n))].map((n) => ({ value: n.id, label: label(n) }));
  };
  const assistantName = (id: string) => assistants.find((a) => a.id === id)?.name ?? id;
  const did = (id: string) => numberDid(numbers.find((n) => n.id === id)) ?? id;
  const fields: Field[] = [
    { kind: 'select', key: 'assistantId', label: 'Assistant', options: () => assistants.map((a) => ({ value: a.id, label: a.name ?? a.id })) },
    { kind: 'select', key: 'phoneNumberId', label: 'From number', options: (v) => fromOptions(v.assistantId) },
    {
      kind: 'text',
      key: 'number',
      label: 'Customer number',
      required: true,
      hint: 'E.164, like +14155550123',
      validate: (v) => (isE164(v) ? null : `Not an E.164 number: ${E164_HINT}`),
    },
    { kind: 'text', key: 'name', label: 'Customer name (optional)' },
  ];
  return (
    <Form
      title="Place an outbound call"
      fields={fields}
      initial={{ assistantId: route.assistantId ?? '', phoneNumberId: linkedTo(route.assistantId)[0]?.id ?? '', number: '', name: '' }}
      submitLabel="Call"
      width={width}
      height={height}
      onCancel={actions.back}
      onSubmit={async (v) => {
        if (!v.assistantId || !v.phoneNumberId) return actions.flash('An assistant and a phone number are needed to place a call', 'error');
        const name = String(v.name).trim();
        const input = {
          assistantId: String(v.assistantId),
          phoneNumberId: String(v.phoneNumberId),
          customer: { number: String(v.number).trim(), ...(name ? { name } : {}) },
        };
        const send = async (again: boolean) => {
          const placed = await actions.placeCall(input, { again });
          if (!placed) return;
          actions.goTo({ name: 'calls' });
          // Without a record the call's id is unknown: the live log is where it shows.
          if (placed.record) actions.push({ name: 'call', id: placed.record.id });
        };
        const who = `${assistantName(input.assistantId)} will call ${input.customer.number}${name ? ` (${name})` : ''} from ${did(input.phoneNumberId)}.`;
        if (!lastAttempt) {
          actions.confirm({ title: 'Place this call?', message: who, confirmLabel: 'call', onConfirm: () => send(false) });
          return;
        }
        actions.confirm({
          title: 'Place another call?',
          message: `${who} Your last call request ${lastAttempt}. It may have placed a call: look in the call log before calling again.`,
          confirmLabel: `call ${input.customer.number} again`,
          onConfirm: () => send(true),
        });
      }}
    />
  );
}

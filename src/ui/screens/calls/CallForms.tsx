// The call-log filter form and the outbound call form.
import { isE164, E164_HINT } from '../../../api/validate.js';
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
      options: () => [{ value: '', label: '(any)' }, ...numbers.map((n) => ({ value: n.id, label: n.did ?? n.id }))],
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
  // What the last request returned when it may have placed a call: another is sent only after a yes.
  const lastAttempt = useConsole((s) => s.outboundAttempt);
  if (!assistants || !numbers) return <Loading what="assistants and numbers" />;
  const fields: Field[] = [
    { kind: 'select', key: 'assistantId', label: 'Assistant', options: () => assistants.map((a) => ({ value: a.id, label: a.name ?? a.id })) },
    { kind: 'select', key: 'phoneNumberId', label: 'From number', options: () => numbers.map((n) => ({ value: n.id, label: n.did ?? n.id })) },
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
      initial={{ assistantId: route.assistantId ?? '', phoneNumberId: '', number: '', name: '' }}
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
        if (!lastAttempt) return send(false);
        actions.confirm({
          title: 'Place another call?',
          message: `Your last call request ${lastAttempt}. It may have placed a call: look in the call log before calling again.`,
          confirmLabel: `call ${input.customer.number} again`,
          onConfirm: () => send(true),
        });
      }}
    />
  );
}

import './cleanup';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarWidget, DeviceSelect, DeviceSelectView, MessagesProvider } from '../../../src/components';
import { AvatarSessionProvider } from '../../../src/react';
import { es } from '../../../src/components/i18n/translations';
import { createTestSession } from '../../../src/testing';

type Device = Pick<MediaDeviceInfo, 'deviceId' | 'label' | 'kind' | 'groupId'>;
const dev = (kind: MediaDeviceKind, deviceId: string, label: string): Device => ({ kind, deviceId, label, groupId: '' });
const NAMED: Device[] = [
  dev('audioinput', 'default', 'Default - Desk mic'),
  dev('audioinput', 'mic-desk', 'Desk mic'),
  dev('audioinput', 'mic-head', 'Headset mic'),
  dev('audiooutput', 'default', 'Default - Speakers'),
  dev('audiooutput', 'out-head', 'Headset'),
];
/** Before permission the browser lists one nameless device of each kind, without ids. */
const HIDDEN: Device[] = [dev('audioinput', '', ''), dev('audiooutput', '', '')];

/** A fake microphone: its track records `stop()`. */
function fakeStream() {
  const track = { kind: 'audio', stop: vi.fn(), readyState: 'live' };
  return { track, stream: { getTracks: () => [track], getAudioTracks: () => [track] } as unknown as MediaStream };
}

let listed: Device[] = NAMED;
const getUserMedia = vi.fn();
beforeEach(() => {
  listed = NAMED;
  localStorage.clear();
  getUserMedia.mockReset();
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { enumerateDevices: async () => listed, getUserMedia, addEventListener() {}, removeEventListener() {} },
  });
  Object.defineProperty(HTMLMediaElement.prototype, 'setSinkId', { configurable: true, value: async () => {} });
});
afterEach(() => {
  delete (HTMLMediaElement.prototype as { setSinkId?: unknown }).setSinkId;
  vi.restoreAllMocks();
});

describe('DeviceSelect', () => {
  it('numbers nameless devices and says why, until the microphone is allowed', () => {
    render(<DeviceSelectView kind="audioinput" devices={[dev('audioinput', 'a', ''), dev('audioinput', 'b', '')]} />);
    const select = screen.getByRole('combobox', { name: 'Microphone' });
    expect(select).toHaveAccessibleDescription('Device names appear once you allow the microphone.');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Default', 'Microphone 1', 'Microphone 2']);
  });

  it('lists named devices (Default first), keyboard-selectable, in the catalogue language', async () => {
    const onChange = vi.fn();
    render(
      <MessagesProvider messages={es}>
        <DeviceSelectView kind="audiooutput" devices={NAMED.filter((d) => d.kind === 'audiooutput')} onChange={onChange} />
      </MessagesProvider>,
    );
    const select = screen.getByRole('combobox', { name: 'Altavoz' });
    expect(select).not.toHaveAccessibleDescription();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Predeterminado', 'Headset']);
    select.focus();
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.selectOptions(select, 'out-head');
    expect(onChange).toHaveBeenLastCalledWith('out-head');
  });
});

describe('DeviceSelect', () => {
  it('remembers the chosen microphone and gives it to the session', async () => {
    const session = createTestSession();
    const setDevice = vi.spyOn(session, 'setDevice');
    const { unmount } = render(
      <AvatarSessionProvider session={session}>
        <DeviceSelect />
      </AvatarSessionProvider>,
    );
    const select = await screen.findByRole('combobox', { name: 'Microphone' });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(select, 'mic-head');
    expect(localStorage.getItem('liveai-kit:device:audioinput')).toBe('mic-head');
    expect(setDevice).toHaveBeenLastCalledWith('audioinput', 'mic-head');
    unmount();
    // A later page load: the remembered device is selected and applied again.
    setDevice.mockClear();
    render(
      <AvatarSessionProvider session={session}>
        <DeviceSelect />
      </AvatarSessionProvider>,
    );
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Microphone' })).toHaveValue('mic-head'));
    // The select shows the device at the commit; the session gets it in the effect that follows.
    await waitFor(() => expect(setDevice).toHaveBeenCalledWith('audioinput', 'mic-head'));
  });

  it('still works where storage throws (private mode, blocked storage)', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    const onChange = vi.fn();
    render(<DeviceSelect onChange={onChange} />);
    const select = await screen.findByRole('combobox', { name: 'Microphone' });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    await userEvent.selectOptions(select, 'mic-desk');
    expect(select).toHaveValue('mic-desk');
    expect(onChange).toHaveBeenCalledWith('mic-desk');
  });

  it('shows no speaker select where the browser cannot choose the output (Safari, Firefox)', async () => {
    delete (HTMLMediaElement.prototype as { setSinkId?: unknown }).setSinkId;
    const { container } = render(<DeviceSelect kind="audiooutput" />);
    await act(async () => {});
    expect(container).toBeEmptyDOMElement();
  });
});

describe('AvatarWidget pre-join step', () => {
  it('asks for the microphone, meters it, and releases it before the call opens the chosen one', async () => {
    const { track, stream } = fakeStream();
    listed = HIDDEN;
    getUserMedia.mockImplementation(async () => ((listed = NAMED), stream));
    localStorage.setItem('liveai-kit:device:audioinput', 'mic-head');
    const session = createTestSession();
    render(<AvatarWidget session={session} variant="inline" preJoin title="Ada" />);
    expect(await screen.findByRole('heading', { name: 'Check your microphone' })).toBeInTheDocument();
    const join = await screen.findByRole('button', { name: 'Join call' });
    await waitFor(() => expect(join).toBeEnabled());
    expect(getUserMedia).toHaveBeenCalledWith({ audio: { deviceId: { exact: 'mic-head' } } });
    expect(screen.getByRole('img', { name: 'Microphone level' })).toBeInTheDocument();
    // Mounted again once allowed: the names show, the remembered device is selected.
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Microphone' })).toHaveValue('mic-head'));
    expect(screen.queryByRole('button', { name: 'Start call' })).toBeNull();
    await userEvent.click(join);
    expect(track.stop).toHaveBeenCalled();
    await waitFor(() => expect(session.transport.connectCalls).toHaveLength(1));
    await waitFor(() => expect(session.transport.micEnabled).toBe(true));
    // The call publishes the chosen microphone from the join (not the default one first, then a switch).
    expect(session.transport.connectCalls[0]).toMatchObject({ micEnabled: true, micDeviceId: 'mic-head' });
    expect(screen.queryByRole('heading', { name: 'Check your microphone' })).toBeNull();
  });

  it('explains a denied microphone (translated) and joins without it', async () => {
    getUserMedia.mockRejectedValue(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    const session = createTestSession();
    render(<AvatarWidget session={session} variant="inline" preJoin messages={es} />);
    expect(await screen.findByText(/El micrófono está bloqueado/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(getUserMedia).toHaveBeenCalledTimes(2));
    await userEvent.click(await screen.findByRole('button', { name: 'Unirse sin micrófono' }));
    await waitFor(() => expect(session.transport.connectCalls).toHaveLength(1));
    expect(session.transport.connectCalls[0]!.micEnabled).toBe(false);
    expect(session.transport.micEnabled).toBe(false);
  });

  it('releases the preview microphone when the widget is minimized', async () => {
    const { track, stream } = fakeStream();
    getUserMedia.mockResolvedValue(stream);
    render(<AvatarWidget session={createTestSession()} initialState="active" preJoin />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Join call' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Minimize' }));
    expect(track.stop).toHaveBeenCalled();
  });
});

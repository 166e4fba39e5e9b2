//! Frames on a QUIC stream: a 4-byte little-endian length, then that many bytes. A length
//! over [`MAX_FRAME`] ends the link rather than allocating what a peer asks for.

use super::TransportError;
use iroh::endpoint::{ReadExactError, RecvStream, SendStream};

/// The largest frame a device sends or accepts (the largest protocol message plus room
/// for the routing envelope).
pub const MAX_FRAME: usize = 512 * 1024;

/// Writes one frame.
pub async fn write(stream: &mut SendStream, payload: &[u8]) -> Result<(), TransportError> {
    if payload.len() > MAX_FRAME {
        return Err(TransportError::TooLarge(payload.len()));
    }
    let mut buf = Vec::with_capacity(4 + payload.len());
    buf.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    buf.extend_from_slice(payload);
    stream
        .write_all(&buf)
        .await
        .map_err(|e| TransportError::Link(e.to_string()))
}

/// Reads one frame; `Ok(None)` when the peer finished the stream cleanly between frames.
pub async fn read(stream: &mut RecvStream) -> Result<Option<Vec<u8>>, TransportError> {
    let mut len = [0u8; 4];
    match stream.read_exact(&mut len).await {
        Ok(()) => {}
        Err(ReadExactError::FinishedEarly(0)) => return Ok(None),
        Err(e) => return Err(TransportError::Link(e.to_string())),
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(TransportError::TooLarge(len));
    }
    let mut payload = vec![0u8; len];
    stream
        .read_exact(&mut payload)
        .await
        .map_err(|e| TransportError::Link(e.to_string()))?;
    Ok(Some(payload))
}

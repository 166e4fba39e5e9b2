//! Join codes: the host's endpoint address as an iroh `EndpointTicket`, in lowercase so it
//! survives a QR code (which may uppercase it) and typing on a phone keypad.

use super::TransportError;
use iroh::EndpointAddr;
use iroh_tickets::endpoint::EndpointTicket;
use std::str::FromStr;

/// The join code for a table hosted at `addr`.
pub fn encode(addr: &EndpointAddr) -> String {
    EndpointTicket::new(addr.clone()).to_string().to_lowercase()
}

/// Reads a join code as pasted, scanned or typed: surrounding spaces and letter case do
/// not matter.
pub fn decode(text: &str) -> Result<EndpointAddr, TransportError> {
    let cleaned: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    if cleaned.is_empty() {
        return Err(TransportError::BadTicket("it is empty".into()));
    }
    EndpointTicket::from_str(&cleaned)
        .map(|t| t.endpoint_addr().clone())
        .map_err(|e| TransportError::BadTicket(format!("it could not be read ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use iroh::{SecretKey, TransportAddr};
    use std::net::SocketAddr;

    fn addr() -> EndpointAddr {
        let id = SecretKey::from_bytes(&[9; 32]).public();
        let ip: SocketAddr = "127.0.0.1:4242".parse().expect("literal");
        EndpointAddr::from_parts(id, [TransportAddr::Ip(ip)])
    }

    #[test]
    fn a_ticket_reads_back_even_after_a_qr_code_uppercased_it() {
        let code = encode(&addr());
        assert_eq!(code, code.to_lowercase());
        assert_eq!(decode(&code).expect("own ticket"), addr());
        let shouted = format!("  {}\n", code.to_uppercase());
        assert_eq!(decode(&shouted).expect("uppercased ticket"), addr());
    }

    #[test]
    fn garbage_is_a_clear_error() {
        for text in ["", "   ", "endpointxyz", "hello world"] {
            let err = decode(text).expect_err("not a ticket");
            assert!(
                err.to_string().starts_with("that join code is not valid"),
                "{err}"
            );
        }
    }
}

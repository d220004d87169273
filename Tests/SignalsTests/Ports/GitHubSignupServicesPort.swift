import Foundation
import Signals

// RxExample's GitHub sign-up: its protocols (`Protocols.swift`), its validation service
// (`DefaultImplementations.swift`) and its wireframe's prompt (`Wireframe.swift`), ported.
// A request is a `Producer` with a typed failure where RxExample has an `Observable` that
// may error.

enum ValidationResult: Equatable, Sendable {
    case ok(message: String)
    case empty
    case validating
    case failed(message: String)

    var isValid: Bool {
        if case .ok = self { true } else { false }
    }
}

/// Why a request to GitHub failed (RxExample's tests fail them with an `NSError`).
struct NetworkError: Error, Equatable {}

protocol GitHubAPI: Sendable {
    func usernameAvailable(_ username: String) -> Producer<Bool, NetworkError>
    func signup(_ username: String, password: String) -> Producer<Bool, NetworkError>
}

protocol GitHubValidationService: Sendable {
    func validateUsername(_ username: String) -> Producer<ValidationResult, NetworkError>
    func validatePassword(_ password: String) -> ValidationResult
    func validateRepeatedPassword(_ password: String, repeatedPassword: String) -> ValidationResult
}

protocol Wireframe: Sendable {
    func promptFor<Action: CustomStringConvertible & Sendable>(
        _ message: String, cancelAction: Action, actions: [Action]
    ) -> Producer<Action, Never>
}

final class GitHubDefaultValidationService: GitHubValidationService {
    let api: GitHubAPI
    let minPasswordCount = 5

    init(api: GitHubAPI) {
        self.api = api
    }

    func validateUsername(_ username: String) -> Producer<ValidationResult, NetworkError> {
        if username.isEmpty {
            return Producer(value: .empty)
        }
        if username.rangeOfCharacter(from: CharacterSet.alphanumerics.inverted) != nil {
            return Producer(value: .failed(message: "Username can only contain numbers or digits"))
        }
        return api.usernameAvailable(username)
            .map { available in
                available ? .ok(message: "Username available") : .failed(message: "Username already taken")
            }
            .prefix(value: .validating)
    }

    func validatePassword(_ password: String) -> ValidationResult {
        let numberOfCharacters = password.count
        if numberOfCharacters == 0 {
            return .empty
        }
        if numberOfCharacters < minPasswordCount {
            return .failed(message: "Password must be at least \(minPasswordCount) characters")
        }
        return .ok(message: "Password acceptable")
    }

    func validateRepeatedPassword(_ password: String, repeatedPassword: String) -> ValidationResult {
        if repeatedPassword.isEmpty {
            return .empty
        }
        return repeatedPassword == password ? .ok(message: "Password repeated") : .failed(message: "Password different")
    }
}
